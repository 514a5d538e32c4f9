package controller

import (
	"reflect"
	"testing"
)

func TestNodeShapes(t *testing.T) {
	change := map[string]any{"nodeId": "c", "kind": "change", "targetFile": "a.ts"}
	validate := map[string]any{"nodeId": "v", "kind": "validate"}
	for _, tc := range []struct {
		note      string
		nodes     any
		want      []nodeShape
		allKinded bool
	}{
		{"no nodes field", nil, []nodeShape{}, true},
		{"nodes not an array", "x", []nodeShape{}, true},
		{"one shape per kind however many nodes", []any{change, validate, change, validate},
			[]nodeShape{{"change", []string{"kind", "nodeId", "targetFile"}}, {"validate", []string{"kind", "nodeId"}}}, true},
		{"node order does not matter", []any{validate, change},
			[]nodeShape{{"change", []string{"kind", "nodeId", "targetFile"}}, {"validate", []string{"kind", "nodeId"}}}, true},
		{"same kind, other fields: two shapes", []any{change, map[string]any{"kind": "change"}},
			[]nodeShape{{"change", []string{"kind"}}, {"change", []string{"kind", "nodeId", "targetFile"}}}, true},
		{"a node that is not an object", []any{change, "x"},
			[]nodeShape{{"change", []string{"kind", "nodeId", "targetFile"}}}, false},
		{"a node without kind", []any{map[string]any{"nodeId": "n"}}, []nodeShape{}, false},
		{"null and number kinds are kinds", []any{map[string]any{"kind": nil}, map[string]any{"kind": 3.0}},
			[]nodeShape{{3.0, []string{"kind"}}, {nil, []string{"kind"}}}, true},
		{"a string kind is not the number", []any{map[string]any{"kind": "3"}, map[string]any{"kind": 3.0}},
			[]nodeShape{{"3", []string{"kind"}}, {3.0, []string{"kind"}}}, true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			sub := map[string]any{}
			if tc.nodes != nil {
				sub["nodes"] = tc.nodes
			}
			got, allKinded := nodeShapes(sub)
			if !reflect.DeepEqual(got, tc.want) || allKinded != tc.allKinded {
				t.Fatalf("got %#v %v, want %#v %v", got, allKinded, tc.want, tc.allKinded)
			}
		})
	}
}
