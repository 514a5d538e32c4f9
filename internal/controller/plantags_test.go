package controller

import (
	"reflect"
	"testing"
)

func TestChangeNodeTags(t *testing.T) {
	for _, tc := range []struct {
		note    string
		nodes   []any
		perNode [][]string
		named   []string
	}{
		{"no nodes", nil, [][]string{}, []string{}},
		{"lowered editIntent and targetSymbols, validate nodes left out", []any{
			map[string]any{"kind": "change", "editIntent": "Replace ADP-Alert with sdf-alert", "targetSymbols": []any{"adp-alert", "AppComponent"}},
			map[string]any{"kind": "validate", "editIntent": "adp-x"},
		}, [][]string{{"adp-alert", "sdf-alert"}, nil}, []string{"adp-alert", "sdf-alert"}},
		{"strings only; an object's values are walked", []any{
			map[string]any{"kind": "change", "editIntent": 5, "targetSymbols": map[string]any{"a": "my-el", "b": 3.0}},
			map[string]any{"kind": "change", "targetSymbols": []any{nil, "x-y-z", "plain"}},
		}, [][]string{{"my-el"}, {"x-y-z"}}, []string{"my-el", "x-y-z"}},
		{"a node that is not an object", []any{"change", map[string]any{"kind": "change", "targetSymbols": "adp-a"}},
			[][]string{nil, {}}, []string{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			perNode, named := changeNodeTags(map[string]any{"nodes": tc.nodes})
			if !reflect.DeepEqual(perNode, tc.perNode) || !reflect.DeepEqual(named, tc.named) {
				t.Fatalf("got %#v %#v, want %#v %#v", perNode, named, tc.perNode, tc.named)
			}
		})
	}
}
