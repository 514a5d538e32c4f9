package controller

import (
	"slices"
	"testing"
)

func TestCycleNodes(t *testing.T) {
	node := func(id string, deps ...string) any {
		d := make([]any, len(deps))
		for i, x := range deps {
			d[i] = x
		}
		return map[string]any{"nodeId": id, "dependsOn": d}
	}
	for _, tc := range []struct {
		note  string
		nodes []any
		want  []string
	}{
		{"empty", nil, []string{}},
		{"chain", []any{node("a"), node("b", "a"), node("c", "b")}, []string{}},
		{"self loop", []any{node("a", "a"), node("b")}, []string{"a"}},
		{"two-cycle with a tail", []any{node("a", "b"), node("b", "a"), node("c", "a")}, []string{"a", "b"}},
		{"dangling dependency is not a cycle", []any{node("a", "ghost")}, []string{}},
		{"two separate cycles", []any{node("a", "b"), node("b", "a"), node("x", "z"), node("y", "x"), node("z", "y")}, []string{"a", "b", "x", "y", "z"}},
		{"diamond", []any{node("a"), node("b", "a"), node("c", "a"), node("d", "b", "c")}, []string{}},
		{"duplicate ids merge their edges", []any{node("a", "b"), node("b"), node("b", "a")}, []string{"a", "b"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := cycleNodes(map[string]any{"nodes": tc.nodes}); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}
