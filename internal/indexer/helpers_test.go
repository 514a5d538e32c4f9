package indexer

import (
	"context"
	"database/sql"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite"
)

var update = flag.Bool("update", false, "rewrite golden files")

// copyWorkspace copies testdata/workspace into a temporary directory, so a
// test can add, change or break files without touching testdata.
func copyWorkspace(t testing.TB) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "ws")
	src := filepath.Join("testdata", "workspace")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// openDB opens a fresh SQLite database the way mcpc's store does.
func openDB(t testing.TB, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "index.db")+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// indexWorkspace opens and refreshes an index of root with its database in
// a temporary directory.
func indexWorkspace(t testing.TB, root string) (*Index, Summary) {
	t.Helper()
	ix, err := Open(openDB(t, t.TempDir()), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := ix.Refresh(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return ix, sum
}

func writeFile(t testing.TB, root, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
