package controller

import (
	"slices"
	"testing"
)

func TestPlanNamedTags(t *testing.T) {
	for _, tc := range []struct {
		note  string
		nodes []any
		want  []string
	}{
		{note: "editIntent and targetSymbols, lowered", nodes: []any{
			map[string]any{"kind": "change", "editIntent": "add an SDF-Data-Grid and an adp-table", "targetSymbols": []any{"sdf-alert", 3}},
		}, want: []string{"adp-table", "sdf-alert", "sdf-data-grid"}},
		{note: "componentMapping", nodes: []any{
			map[string]any{"kind": "change", "editIntent": "migrate", "componentMapping": map[string]any{"fromTag": "adp-button", "toTag": "sdf-button"}},
		}, want: []string{"adp-button", "sdf-button"}},
		{note: "validate nodes name nothing", nodes: []any{
			map[string]any{"kind": "validate", "editIntent": "check the sdf-data-grid"},
		}, want: []string{}},
		{note: "no nodes", nodes: nil, want: []string{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := planNamedTags(map[string]any{"nodes": tc.nodes}, embeddedTagPattern())
			if !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	many := []any{}
	for i := range 100 {
		many = append(many, map[string]any{"kind": "change", "editIntent": "x-" + string(rune('a'+i%26)) + string(rune('a'+i/26))})
	}
	if got := planNamedTags(map[string]any{"nodes": many}, embeddedTagPattern()); len(got) != maxNamedTags {
		t.Fatalf("named tags are bounded: %d", len(got))
	}
}
