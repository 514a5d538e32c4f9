package controller

import (
	"reflect"
	"testing"
)

// TestFileTagNodes: the join lists each tag a target file uses with the
// change nodes on those files, ascending and once each; files without
// change nodes and change nodes on files without tags join nothing.
func TestFileTagNodes(t *testing.T) {
	targets := map[string][]int{"src/a.html": {4, 0}, "src/b.html": {2}, "src/c.html": {6}}
	tags := map[string][]string{
		"src/a.html": {"adp-alert", "adp-card"},
		"src/b.html": {"adp-card"},
		"docs/x.md":  {"adp-alert"},
	}
	want := map[string][]int{"adp-alert": {0, 4}, "adp-card": {0, 2, 4}}
	if got := fileTagNodes(targets, tags); !reflect.DeepEqual(got, want) {
		t.Fatalf("fileTagNodes = %v, want %v", got, want)
	}
	if got := fileTagNodes(targets, nil); len(got) != 0 || got == nil {
		t.Fatalf("no tags: %v, want an empty (not null) join", got)
	}
	var none submissionFacts
	none.addFileTagNodes(tags) // no aggregates (nodes not an array): nothing to join
	if none.Aggregates != nil {
		t.Fatal("facts without aggregates gained some")
	}
}
