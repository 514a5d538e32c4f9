//go:build unix

package pathscope

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLock: a second holder waits until the first releases the lock; a
// link planted where the lock file goes is refused, never followed.
func TestLock(t *testing.T) {
	fx := newFixture(t)
	unlock, err := fx.r.Lock(".ai/tmp/side-effects.lock")
	if err != nil {
		t.Fatal(err)
	}
	second := make(chan struct{})
	go func() {
		u, err := fx.r.Lock(".ai/tmp/side-effects.lock")
		if err == nil {
			u()
		}
		close(second)
	}()
	select {
	case <-second:
		t.Fatal("a second holder got the lock while the first held it")
	case <-time.After(100 * time.Millisecond):
	}
	unlock()
	<-second

	must(t, os.Symlink(filepath.Join(fx.outside, "secret.txt"), filepath.Join(fx.root, ".ai", "tmp", "linked.lock")))
	if u, err := fx.r.Lock(".ai/tmp/linked.lock"); err == nil {
		u()
		t.Fatal("locked through a symlink")
	}
}

// TestReadDirNames: a directory's names, never through a link.
func TestReadDirNames(t *testing.T) {
	fx := newFixture(t)
	names, err := fx.r.ReadDirNames("src/util")
	if err != nil || len(names) != 1 || names[0] != "strings.ts" {
		t.Fatalf("names %v, %v", names, err)
	}
	must(t, os.Symlink(fx.outside, filepath.Join(fx.root, "outdir")))
	if names, err := fx.r.ReadDirNames("outdir"); err == nil {
		t.Fatalf("listed %v through a symlink", names)
	}
}

// TestRemove: a file is removed, a missing one is no error, a link is
// removed itself and what it points to is left, and nothing is reached
// through a linked folder.
func TestRemove(t *testing.T) {
	fx := newFixture(t)
	must(t, os.WriteFile(filepath.Join(fx.root, "src", "util", "gone.ts"), []byte("x"), 0o644))
	for _, p := range []string{"src/util/gone.ts", "src/util/never.ts", "no/such/dir/file"} {
		if err := fx.r.Remove(p); err != nil {
			t.Errorf("Remove(%q): %v", p, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(fx.root, "src", "util", "gone.ts")); !os.IsNotExist(err) {
		t.Errorf("the file is still there: %v", err)
	}
	secret := filepath.Join(fx.outside, "secret.txt")
	must(t, os.Symlink(secret, filepath.Join(fx.root, "link.txt")))
	must(t, os.Symlink(fx.outside, filepath.Join(fx.root, "outdir")))
	if err := fx.r.Remove("link.txt"); err != nil {
		t.Errorf("Remove(link): %v", err)
	}
	if err := fx.r.Remove("outdir/secret.txt"); err == nil {
		t.Error("removed a file through a linked folder")
	}
	if _, err := os.Stat(secret); err != nil {
		t.Fatalf("the link's target went with it: %v", err)
	}
}
