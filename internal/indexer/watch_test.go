//go:build linux

package indexer

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// watchedIndex opens a watching index of root and refreshes it once.
func watchedIndex(t *testing.T, root string) *Index {
	t.Helper()
	ix, err := Open(openDB(t, t.TempDir()), Options{Root: root, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

// sameAsFresh refreshes the watching index and checks it holds what an
// index built from scratch over the tree holds: the same files with the
// same content hashes.
func sameAsFresh(t *testing.T, ix *Index, root, step string) {
	t.Helper()
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	fresh, _ := indexWorkspace(t, root)
	if got, want := ix.Digest(), fresh.Digest(); got != want {
		t.Fatalf("%s: the watching index differs from a fresh one:\n got %q\nwant %q", step, ix.Files(), fresh.Files())
	}
}

func sh(t *testing.T, dir, script string) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// TestWatchedRefreshSeesEveryChange makes each kind of change another
// process makes to a tree, on a real file system, and checks the next
// refresh of a watching index sees it.
func TestWatchedRefreshSeesEveryChange(t *testing.T) {
	root := copyWorkspace(t)
	ix := watchedIndex(t, root)
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if ix.watched.quiets != 1 {
		t.Fatalf("a refresh with nothing changed walked the tree (quiet refreshes %d)", ix.watched.quiets)
	}
	steps := []struct{ name, script string }{
		// Same size, same directory: only the content and the stat move.
		{"content rewritten", `printf 'export const aaaa = 1;\n' > src/a.ts; printf 'export const bbbb = 1;\n' > src/a.ts`},
		{"file appended", `echo 'export function added() {}' >> src/a.ts`},
		{"file added", `echo 'export class Fresh {}' > src/fresh.ts`},
		{"file removed", `rm src/fresh.ts`},
		{"file renamed", `mv src/a.ts src/renamed.ts`},
		{"nested directories added", `mkdir -p src/new/deep && echo 'export const x = 1;' > src/new/deep/x.ts && echo 'export const y = 2;' > src/new/y.ts`},
		{"file added in the new directory", `echo 'export const z = 3;' > src/new/deep/z.ts`},
		{"directory renamed", `mv src/new src/moved`},
		{"file added under the renamed directory", `echo 'export const w = 4;' > src/moved/deep/w.ts`},
		{"directory removed", `rm -rf src/moved`},
		{"directory ignored", `echo 'server/' >> .gitignore`},
		{"directory no longer ignored", `rm .gitignore`},
		{"nested .gitignore added", `echo '*.ts' > src/.gitignore`},
		{"nested .gitignore removed", `rm src/.gitignore`},
		{"touched", `touch -d '2001-01-01' src/renamed.ts`},
	}
	for _, s := range steps {
		t.Log(s.name)
		sh(t, root, s.script)
		sameAsFresh(t, ix, root, s.name)
	}
}

// TestWatchedRefreshSeesGitCheckout switches branches under a watching
// index: git rewrites, adds and removes files and directories at once.
func TestWatchedRefreshSeesGitCheckout(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root := copyWorkspace(t)
	git := `git -c user.email=t@t -c user.name=t -c commit.gpgsign=false `
	sh(t, root, `git init -q -b main . && `+git+`add -A && `+git+`commit -qm base`)
	sh(t, root, `git checkout -q -b other && mkdir -p lib/extra && echo 'export const e = 1;' > lib/extra/e.ts && echo 'export const changed = 2;' >> src/a.ts && git rm -q -r server && `+git+`add -A && `+git+`commit -qm other && git checkout -q main`)
	ix := watchedIndex(t, root)
	sh(t, root, `git checkout -q other`)
	sameAsFresh(t, ix, root, "checkout other")
	sh(t, root, `git checkout -q main`)
	sameAsFresh(t, ix, root, "checkout main")
}

// TestWatchedRefreshAfterLostEvents overflows nothing but makes the
// watcher unable to vouch, as an overflow would: the refresh walks all.
func TestWatchedRefreshAfterLostEvents(t *testing.T) {
	root := copyWorkspace(t)
	ix := watchedIndex(t, root)
	ix.watched.w.Invalidate()
	writeFile(t, root, "src/lost.ts", []byte("export const lost = 1;\n"))
	sameAsFresh(t, ix, root, "after a lost event")
	// A closed watcher leaves the index walking every time.
	if err := ix.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "src", "lost.ts")); err != nil {
		t.Fatal(err)
	}
	sameAsFresh(t, ix, root, "after Close")
}

// TestEarlyWalkSeesLaterChanges checks that the walk a watching index
// begins in Open leaves the first Refresh its listings and watches, and
// that changes made after that walk and before the first Refresh are in it.
func TestEarlyWalkSeesLaterChanges(t *testing.T) {
	for _, tc := range []struct {
		note   string
		change string // a shell script run in the tree after the early walk
	}{
		{"nothing changed", "true"},
		{"a file edited", "echo 'export const edited = 2;' > src/app/orders/orders.service.ts"},
		{"a file added in a new folder", "mkdir -p src/app/late && echo 'export class Late {}' > src/app/late/late.ts"},
		{"a file removed", "rm server/api/format.js"},
		{"a .gitignore added", "echo 'orders/' > src/app/.gitignore"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			root := copyWorkspace(t)
			ix, err := Open(openDB(t, t.TempDir()), Options{Root: root, Watch: true, WalkAtOpen: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ix.Close() })
			ix.refreshMu.Lock() // the early walk has ended
			listed := ix.listings != nil && ix.watched.w != nil
			ix.refreshMu.Unlock()
			if !listed {
				t.Fatal("Open's walk left no listings or no watcher")
			}
			sh(t, root, tc.change)
			sameAsFresh(t, ix, root, tc.note)
		})
	}
}
