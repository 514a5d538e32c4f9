package controller

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/policies"
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

// TestTagPatternIsPolicys: Go reports the tags policy would find, so its
// pattern must be the one mcpc.lib.enforcement matches with; a policy author
// who changes one without the other fails here.
func TestTagPatternIsPolicys(t *testing.T) {
	src, err := policies.FS.ReadFile("rego/mcpc/lib/enforcement/enforcement.rego")
	if err != nil {
		t.Fatal(err)
	}
	want := "_tag_pattern := `" + tagPattern.String() + "`"
	if !strings.Contains(string(src), want) {
		t.Fatalf("mcpc.lib.enforcement does not declare %s: change internal/controller's tagPattern with it", want)
	}
}
