package indexer

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDigestFollowsWrites holds the digest Index keeps (filesDigest) to the
// one computed from its files at every step: a touch that changes no
// content, an edit, an addition, a removal.
func TestDigestFollowsWrites(t *testing.T) {
	root := copyWorkspace(t)
	ix, _ := indexWorkspace(t, root)
	file := "src/app/orders/grid/orders-grid.component.ts"
	steps := []struct {
		note    string
		change  func()
		changes bool // the digest moves
	}{
		{"nothing changed", func() {}, false},
		{"touched, same content", func() {
			later := time.Now().Add(time.Minute)
			if err := os.Chtimes(filepath.Join(root, file), later, later); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"edited", func() { writeFile(t, root, file, []byte("export class Edited {}\n")) }, true},
		{"added", func() { writeFile(t, root, "src/app/added.ts", []byte("export const added = 1;\n")) }, true},
		{"removed", func() {
			if err := os.Remove(filepath.Join(root, "src/app/added.ts")); err != nil {
				t.Fatal(err)
			}
		}, true},
	}
	prev := ix.Digest()
	for _, s := range steps {
		t.Run(s.note, func(t *testing.T) {
			s.change()
			if _, err := ix.Refresh(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			ix.mu.RLock()
			want := stampDigest(ix.files)
			ix.mu.RUnlock()
			got := ix.Digest()
			if got != want {
				t.Fatalf("Digest %s, the files' %s", got, want)
			}
			if moved := got != prev; moved != s.changes {
				t.Errorf("the digest moved: %v, want %v", moved, s.changes)
			}
			prev = got
		})
	}
}
