package graph_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/store"
)

// copyWorkspace copies testdata/workspace to a temporary folder, so tests
// may change files.
func copyWorkspace(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	src := "testdata/workspace"
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// fixture is an indexed workspace with an embedded graph.
type fixture struct {
	root string
	st   *store.Store
	ix   *indexer.Index
	g    *graph.Embedded
	b    *graph.Builder // kept across syncs, as serve keeps one
}

func newFixture(t testing.TB, root string) *fixture {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ix, err := indexer.Open(st.DB(), indexer.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return &fixture{root: root, st: st, ix: ix, g: graph.OpenEmbedded(st.DB()), b: graph.NewBuilder(graph.Options{})}
}

func (f *fixture) sync(t testing.TB, full bool) *graph.SyncSummary {
	t.Helper()
	if _, err := f.ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	sum, err := f.b.Sync(context.Background(), f.g, f.ix, full)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}
