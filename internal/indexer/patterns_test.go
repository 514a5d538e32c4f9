package indexer

import (
	"slices"
	"testing"
)

// TestFindKeySets checks the one-pass key scan on the cases the scan must
// tell apart: a key alone, inside a longer identifier, after a '.', with
// spaces before its follower, and the words' order in the result.
func TestFindKeySets(t *testing.T) {
	tests := []struct {
		note string
		src  string
		sets []keySet
		want [][]int
	}{
		{note: "a route's keys, by word order then text order", src: "{ path: 'a', loadChildren: () => import('./a') }, { path : 'b' }",
			sets: []keySet{{dynamicImportCalls, '('}, {patternKeys, ':'}},
			want: [][]int{{33}, {13, 2, 52}}},
		{note: "inside a longer identifier or after a dot", src: "subpath: 1, pathName: 2, x.path: 3, $path: 4, my-path: 5",
			sets: []keySet{{patternKeys, ':'}}, want: [][]int{{49}}},
		{note: "spaces and tabs before the follower, nothing after the key", src: "require \t('x'); path",
			sets: []keySet{{dynamicImportCalls, '('}, {patternKeys, ':'}}, want: [][]int{{0}, nil}},
		{note: "the wrong follower", src: "import { path } from 'x'",
			sets: []keySet{{dynamicImportCalls, '('}, {patternKeys, ':'}}, want: [][]int{nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			got := findKeySets([]byte(tt.src), tt.sets...)
			if !slices.EqualFunc(got, tt.want, slices.Equal[[]int]) {
				t.Errorf("findKeySets(%q) = %v, want %v", tt.src, got, tt.want)
			}
			for k, ks := range tt.sets {
				if one := findKeys([]byte(tt.src), ks.words, ks.next); !slices.Equal(one, got[k]) {
					t.Errorf("findKeys(%q, set %d) = %v, want %v", tt.src, k, one, got[k])
				}
			}
		})
	}
}
