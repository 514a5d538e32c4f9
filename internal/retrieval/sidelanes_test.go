package retrieval

import (
	"slices"
	"sort"
	"testing"
)

func TestSideLanes(t *testing.T) {
	ix := testIndex(t)
	for _, tc := range []struct {
		note string
		in   SideInputs
		lane string
		want []string // files the lane must hold
	}{
		{"a named custom element pulls in its templates", SideInputs{Prompt: "Migrate adp-data-table to sdf-table"},
			"policy", []string{"src/app/dashboard/dashboard.component.html"}},
		{"lexemes name elements too", SideInputs{Lexemes: []string{"sdf-badge"}},
			"policy", []string{"src/app/dashboard/dashboard.component.html"}},
		{"an attachment caption names a file", SideInputs{Attachments: []string{"screenshot of dashboard.component.html"}},
			"artifact", []string{"src/app/dashboard/dashboard.component.html"}},
		{"the prompt names a path", SideInputs{Prompt: "fix tsconfig.json paths"},
			"artifact", []string{"tsconfig.json"}},
		{"memories point at their anchors", SideInputs{MemoryAnchors: []string{"src/app/dashboard"}},
			"memory", []string{"src/app/dashboard/dashboard.component.html"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			lanes := SideLanes(ix, tc.in)
			var got []string
			for f := range lanes[tc.lane] {
				got = append(got, f)
			}
			sort.Strings(got)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("lane %s = %v, want it to hold %s", tc.lane, got, w)
				}
			}
		})
	}
	if lanes := SideLanes(ix, SideInputs{Prompt: "refactor the thing"}); len(lanes) != 0 {
		t.Errorf("nothing named, yet lanes %v", lanes)
	}
}
