package controller

import (
	"reflect"
	"testing"
)

// TestTagTargets: the join lists each tag a target file uses with the
// target files that use it, sorted and once each; files no change node
// targets and targets without tags join nothing.
func TestTagTargets(t *testing.T) {
	targets := map[string][]int{"src/a.html": {4, 0}, "src/b.html": {2}, "src/c.html": {6}}
	tags := map[string][]string{
		"src/a.html": {"adp-alert", "adp-card", "adp-card"},
		"src/b.html": {"adp-card"},
		"docs/x.md":  {"adp-alert"},
	}
	want := map[string][]string{"adp-alert": {"src/a.html"}, "adp-card": {"src/a.html", "src/b.html"}}
	if got := tagTargets(targets, tags); !reflect.DeepEqual(got, want) {
		t.Fatalf("tagTargets = %v, want %v", got, want)
	}
	if got := tagTargets(targets, nil); len(got) != 0 || got == nil {
		t.Fatalf("no tags: %v, want an empty (not null) join", got)
	}
	var none submissionFacts
	none.addTagTargets(tags) // no aggregates (nodes not an array): nothing to join
	if none.Aggregates != nil {
		t.Fatal("facts without aggregates gained some")
	}
}
