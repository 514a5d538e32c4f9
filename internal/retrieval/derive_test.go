package retrieval

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/indexer"
)

// referencePaths is derivePaths as it was before it tokenised each
// directory and file name once: every path tokenised whole.
func referencePaths(files []string) (pathTerms map[string][]int32, baseTerms []map[string]bool, anchors []string) {
	pathTerms = map[string][]int32{}
	baseTerms = make([]map[string]bool, len(files))
	anchors = make([]string, len(files))
	for i, f := range files {
		seen := map[string]bool{}
		for _, t := range indexer.PathTerms(f) {
			if !seen[t] {
				seen[t] = true
				pathTerms[t] = append(pathTerms[t], int32(i))
			}
		}
		baseTerms[i] = map[string]bool{}
		for _, t := range indexer.PathTerms(f[strings.LastIndexByte(f, '/')+1:]) {
			baseTerms[i][t] = true
		}
		anchors[i] = indexer.Anchor(f)
	}
	return pathTerms, baseTerms, anchors
}

// TestDerivePathsMatchesWholePaths checks that the memoised path tables
// are exactly those of tokenising every path, on the test workspace beside
// two copies of it as a monorepo's applications (directories and file
// names that repeat) plus paths that test where an extension ends.
func TestDerivePathsMatchesWholePaths(t *testing.T) {
	var files []string
	for _, f := range testIndex(t).Corpus().Files {
		files = append(files, f, "apps/app0/"+f, "apps/app1/"+f)
	}
	files = append(files, ".gitignore", "Makefile", "docs/README", "src/.eslintrc.json",
		"src/foo.bar/BazQux.spec.ts", "src/foo.bar/baz", "x-y/z_w.v1.2.js", "a/b/c/d/e/HTMLParser.java", "src/app/app.component")
	slices.Sort(files)
	d := &derived{corpus: &indexer.Corpus{Files: files}}
	d.derivePaths()
	pathTerms, baseTerms, anchors := referencePaths(files)
	if !reflect.DeepEqual(d.pathTerms, pathTerms) {
		for term, docs := range pathTerms {
			if !slices.Equal(d.pathTerms[term], docs) {
				t.Errorf("path term %q: documents %v, want %v", term, d.pathTerms[term], docs)
			}
		}
		t.Fatalf("path terms differ: %d terms, want %d", len(d.pathTerms), len(pathTerms))
	}
	for i, f := range files {
		if got, want := slices.Sorted(slices.Values(d.baseTerms[i])), slices.Sorted(maps.Keys(baseTerms[i])); !slices.Equal(got, want) {
			t.Errorf("%s: file-name terms %v, want %v", f, got, want)
		}
		if d.anchors[i] != anchors[i] {
			t.Errorf("%s: anchor %q, want %q", f, d.anchors[i], anchors[i])
		}
	}
}
