package indexer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// storedView builds a view from scratch out of the facts ix's database
// holds, the blobs included: what a new process would build. A view's
// files drop their term blobs, so ix.files alone no longer make one.
func storedView(t *testing.T, ix *Index) *view {
	t.Helper()
	files := make(map[string]*fileFacts, len(ix.files))
	for p, f := range ix.files {
		files[p] = f.stamp()
	}
	if err := loadFacts(context.Background(), ix.db, files, true); err != nil {
		t.Fatal(err)
	}
	v, _ := buildView(files, loadProjectConfig(ix.opts.Root))
	return v
}

// TestViewDropsTermBlobs: once a view is built its files hold no term
// blobs (the corpus has the counts), and a full rebuild forced by many
// changes gets the unchanged files' terms back from the previous corpus:
// the rebuilt view is the one a new process builds from the database.
func TestViewDropsTermBlobs(t *testing.T) {
	root := copyWorkspace(t)
	ix, _ := indexWorkspace(t, root)
	ix.current()
	for p, f := range ix.files {
		if f.Terms != nil {
			t.Fatalf("%s keeps its term blob after the view", p)
		}
	}
	// More changes than an update folds in: a full rebuild.
	for i := 0; i <= maxIncremental; i++ {
		writeFile(t, root, filepath.Join("gen", "f"+strconv.Itoa(i)+".ts"), []byte("export class Gen"+strconv.Itoa(i)+" { value = "+strconv.Itoa(i)+"; }\n"))
	}
	if err := os.Remove(filepath.Join(root, "server/api/format.js")); err != nil {
		t.Fatal(err)
	}
	derived := ix.derivedViews
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	got := ix.current()
	if ix.derivedViews != derived {
		t.Fatal("the view was derived, want a full rebuild")
	}
	compareViews(t, got, storedView(t, ix))
	for p, f := range ix.files {
		if f.Terms != nil {
			t.Fatalf("%s keeps its term blob after the rebuild", p)
		}
	}
}

// TestCorpusCompactKeepsPostings: folding the overlay into a fresh base
// changes no term's postings.
func TestCorpusCompactKeepsPostings(t *testing.T) {
	root := copyWorkspace(t)
	ix, _ := indexWorkspace(t, root)
	ix.current()
	writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class OrdersService { brandnewterm() {} }\n"))
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	c := ix.current().corpus
	if len(c.overlay) == 0 {
		t.Fatal("no overlay to fold")
	}
	n := c.compact()
	terms := map[string]bool{}
	for term := range c.terms {
		terms[term] = true
	}
	for term := range c.overlay {
		terms[term] = true
	}
	for term := range terms {
		if got, want := n.Postings(term), c.Postings(term); !slices.Equal(got, want) {
			t.Errorf("postings of %q: got %v, want %v", term, got, want)
		}
	}
	if len(n.overlay) != 0 {
		t.Errorf("overlay left: %d terms", len(n.overlay))
	}
}
