package controller

import (
	"encoding/json"
	"reflect"
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
			perNode, named := changeNodeTags(map[string]any{"nodes": tc.nodes}, embeddedTagPattern())
			if !reflect.DeepEqual(perNode, tc.perNode) || !reflect.DeepEqual(named, tc.named) {
				t.Fatalf("got %#v %#v, want %#v %#v", perNode, named, tc.perNode, tc.named)
			}
		})
	}
}

// TestTagPatternIsPolicys: Go finds the tags it reports with the pattern
// of the loaded policy's data (policies/data/tags.json, which
// mcpc.lib.enforcement matches with), so a bundle that overrides it is
// followed by Go too; a policy without one, or with one Go cannot compile,
// gets no tag facts (policy then finds the tags itself).
func TestTagPatternIsPolicys(t *testing.T) {
	dataOf := func(doc any) func(path ...string) any {
		return func(path ...string) any {
			cur := doc
			for _, p := range path {
				m, _ := cur.(map[string]any)
				cur = m[p]
			}
			return cur
		}
	}
	tagData := func(pattern any) func(path ...string) any {
		return dataOf(map[string]any{"data": map[string]any{"mcpc": map[string]any{"customElementTag": map[string]any{"pattern": pattern}}}})
	}
	raw, err := policies.FS.ReadFile("data/tags.json")
	if err != nil {
		t.Fatal(err)
	}
	var embedded map[string]any
	if err := json.Unmarshal(raw, &embedded); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		note string
		data func(path ...string) any
		want string // "" for no pattern
	}{
		{"the embedded policy's", dataOf(map[string]any{"data": embedded}), embeddedTagPattern().String()},
		{"a bundle's own", tagData(`x-[a-z]+`), `x-[a-z]+`},
		{"none", dataOf(map[string]any{}), ""},
		{"not a pattern Go compiles", tagData(`(`), ""},
		{"not a string", tagData(5), ""},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := tagPatternOf(tc.data)
			if (got == nil) != (tc.want == "") || (got != nil && got.String() != tc.want) {
				t.Fatalf("got %v, want %q", got, tc.want)
			}
		})
	}
	perNode, named := changeNodeTags(map[string]any{"nodes": []any{map[string]any{"kind": "change", "editIntent": "x-ab and adp-alert"}}}, tagPatternOf(tagData(`x-[a-z]+`)))
	if !reflect.DeepEqual(perNode, [][]string{{"x-ab"}}) || !reflect.DeepEqual(named, []string{"x-ab"}) {
		t.Fatalf("a bundle's pattern is not followed: %v %v", perNode, named)
	}
	if perNode, named := changeNodeTags(map[string]any{"nodes": []any{}}, nil); perNode != nil || named != nil {
		t.Fatalf("no pattern, no facts: %v %v", perNode, named)
	}
}
