//go:build unix

package pathscope

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withinDeadline fails the test if op blocks: reading a FIFO must return
// promptly. This is a hang guard, not a timing assertion.
func withinDeadline(t *testing.T, op func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- op() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("operation blocked")
		return nil
	}
}

func TestReadRefusals(t *testing.T) {
	fx := newFixture(t)
	cases := []struct {
		note string
		path string
		want error
	}{
		{"symlink to an in-tree file", "links/in-file", ErrSymlink},
		{"file below a symlinked in-tree directory", "links/in-dir/app.ts", ErrSymlink},
		{"symlink to an outside file", "links/out-file", ErrSymlink},
		{"file below a symlinked parent outside", "links/out-dir/secret.txt", ErrSymlink},
		{"symlink to /dev/zero", "links/zero", ErrSymlink},
		{"symlink loop", "links/loop-a", ErrSymlink},
		{"below a symlink loop", "links/loop-a/x", ErrSymlink},
		{"dangling symlink", "links/dangling-in", ErrSymlink},
		{"FIFO", "pipe.fifo", ErrNotRegular},
		{"unix socket", "sock", ErrNotRegular},
		{"directory", "src", ErrNotRegular},
		{"hard link to an outside file", "hardlink-out.txt", ErrHardLinked},
		{"hard link inside the tree", "src/h1.ts", ErrHardLinked},
		{".git file", ".git/config", ErrGitInternal},
		{"upper-case .GIT file", ".GIT/HEAD", ErrGitInternal},
		{"not canonical: dot segment", "src/./app.ts", ErrInvalidPath},
		{"not canonical: trailing slash", "src/app.ts/", ErrInvalidPath},
		{"not canonical: leading ./", "./src/app.ts", ErrInvalidPath},
		{"empty", "", ErrInvalidPath},
		{"the root", ".", ErrInvalidPath},
		{"absolute path of an in-tree file", filepath.Join(fx.root, "src/app.ts"), ErrInvalidPath},
		{"traversal", "../outside/secret.txt", ErrInvalidPath},
		{"literal percent name", "file%20name.txt", ErrInvalidPath},
		{"format character", "src/app\u200b.ts", ErrInvalidPath},
		{"missing file", "src/nope.ts", fs.ErrNotExist},
		{"missing directory", "nope/x.ts", fs.ErrNotExist},
		{"below a regular file", "src/app.ts/x", syscall.ENOTDIR},
	}
	for _, tc := range cases {
		t.Run(tc.note, func(t *testing.T) {
			var data []byte
			err := withinDeadline(t, func() (err error) { data, err = fx.r.ReadFile(tc.path, 1<<20); return err })
			if !errors.Is(err, tc.want) || data != nil {
				t.Errorf("ReadFile(%q) = %q, %v; want error %v", tc.path, data, err, tc.want)
			}
			err = withinDeadline(t, func() error { _, err := fx.r.HashFile(tc.path); return err })
			if !errors.Is(err, tc.want) {
				t.Errorf("HashFile(%q) error %v, want %v", tc.path, err, tc.want)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Errorf("error %v is not an *fs.PathError", err)
			}
		})
	}
}

func TestReadFileLimit(t *testing.T) {
	fx := newFixture(t)
	n := int64(len(appTS))
	if data, err := fx.r.ReadFile("src/app.ts", n); err != nil || string(data) != appTS {
		t.Errorf("limit equal to size: %q, %v", data, err)
	}
	if _, err := fx.r.ReadFile("src/app.ts", n-1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit one below size: %v, want ErrTooLarge", err)
	}
	if data, err := fx.r.ReadFile("empty.txt", 0); err != nil || len(data) != 0 {
		t.Errorf("empty file with limit 0: %q, %v", data, err)
	}
	if _, err := fx.r.ReadFile("src/app.ts", -1); err == nil {
		t.Error("negative limit accepted")
	}
}

// TestReadRechecksAfterResolve swaps things in between Resolve and the read,
// the check-then-use race an attacker with write access to the tree can win.
func TestReadRechecksAfterResolve(t *testing.T) {
	t.Run("file replaced by a symlink to an outside file", func(t *testing.T) {
		fx := newFixture(t)
		if f := fx.r.Resolve("src/app.ts"); !f.Valid {
			t.Fatalf("precondition: %+v", f)
		}
		target := filepath.Join(fx.root, "src/app.ts")
		must(t, os.Remove(target))
		must(t, os.Symlink(filepath.Join(fx.outside, "secret.txt"), target))
		if data, err := fx.r.ReadFile("src/app.ts", 1<<20); !errors.Is(err, ErrSymlink) {
			t.Errorf("ReadFile = %q, %v; want ErrSymlink", data, err)
		}
	})
	t.Run("parent directory replaced by a symlink to an outside directory", func(t *testing.T) {
		fx := newFixture(t)
		must(t, os.WriteFile(filepath.Join(fx.outside, "app.ts"), []byte(outsideMarker), 0o644))
		must(t, os.RemoveAll(filepath.Join(fx.root, "src")))
		must(t, os.Symlink(fx.outside, filepath.Join(fx.root, "src")))
		if data, err := fx.r.ReadFile("src/app.ts", 1<<20); !errors.Is(err, ErrSymlink) {
			t.Errorf("ReadFile = %q, %v; want ErrSymlink", data, err)
		}
		if _, err := fx.r.HashFile("src/app.ts"); !errors.Is(err, ErrSymlink) {
			t.Errorf("HashFile: %v; want ErrSymlink", err)
		}
	})
	t.Run("file replaced by a FIFO does not block", func(t *testing.T) {
		fx := newFixture(t)
		target := filepath.Join(fx.root, "src/app.ts")
		must(t, os.Remove(target))
		must(t, syscall.Mkfifo(target, 0o644))
		err := withinDeadline(t, func() error { _, err := fx.r.ReadFile("src/app.ts", 1<<20); return err })
		if !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadFile: %v; want ErrNotRegular", err)
		}
	})
	t.Run("file replaced by a hard link to an outside file", func(t *testing.T) {
		fx := newFixture(t)
		target := filepath.Join(fx.root, "src/app.ts")
		must(t, os.Remove(target))
		must(t, os.Link(filepath.Join(fx.outside, "secret.txt"), target))
		if data, err := fx.r.ReadFile("src/app.ts", 1<<20); !errors.Is(err, ErrHardLinked) {
			t.Errorf("ReadFile = %q, %v; want ErrHardLinked", data, err)
		}
	})
	t.Run("root replaced by a symlink", func(t *testing.T) {
		fx := newFixture(t)
		moved := filepath.Join(fx.base, "moved")
		must(t, os.Rename(fx.root, moved))
		must(t, os.Symlink(moved, fx.root))
		if _, err := fx.r.ReadFile("src/app.ts", 1<<20); err == nil {
			t.Error("ReadFile followed a symlink planted at the root")
		}
	})
}

func TestWriteFileAtomic(t *testing.T) {
	payload := []byte("new contents\n")
	refusals := []struct {
		note         string
		path         string
		mkdirParents bool
		want         error
	}{
		{"symlink to an in-tree file", "links/in-file", false, ErrSymlink},
		{"symlink to an outside file", "links/out-file", false, ErrSymlink},
		{"relative symlink to an outside file", "links/out-rel", false, ErrSymlink},
		{"file below a symlinked parent outside", "links/out-dir/secret.txt", false, ErrSymlink},
		{"new file below a symlinked parent outside", "links/out-dir/new.txt", true, ErrSymlink},
		{"new directories below a symlinked in-tree directory", "links/in-dir/new/x.ts", true, ErrSymlink},
		{"dangling symlink to an absolute path", "links/dangling-out", false, ErrSymlink},
		{"symlink to /dev/zero", "links/zero", false, ErrSymlink},
		{"symlink to a loop outside", "links/out-loop", false, ErrSymlink},
		{"FIFO", "pipe.fifo", false, ErrNotRegular},
		{"unix socket", "sock", false, ErrNotRegular},
		{"directory", "src", false, ErrNotRegular},
		{"hard link to an outside file", "hardlink-out.txt", false, ErrHardLinked},
		{"git hook", ".git/hooks/pre-commit", true, ErrGitInternal},
		{"git config", ".git/config", false, ErrGitInternal},
		{"traversal", "../outside/secret.txt", true, ErrInvalidPath},
		{"absolute path of an outside file", "/dev/null", false, ErrInvalidPath},
		{"not canonical", "src/../src/app.ts", false, ErrInvalidPath},
		{"root", ".", false, ErrInvalidPath},
		{"missing parent without mkdirParents", "nope/x.ts", false, fs.ErrNotExist},
		{"parent is a regular file", "src/app.ts/x", true, syscall.ENOTDIR},
	}
	// Every writer refuses the same way and changes nothing, in the tree or
	// outside it.
	writers := []struct {
		name  string
		write func(*Resolver, string, []byte, bool) error
	}{
		{"WriteFileAtomic", (*Resolver).WriteFileAtomic},
		{"WriteFile", (*Resolver).WriteFile},
		{"AppendFile", (*Resolver).AppendFile},
	}
	for _, w := range writers {
		for _, tc := range refusals {
			t.Run(w.name+" refuses "+tc.note, func(t *testing.T) {
				fx := newFixture(t)
				tree, outside := snapshot(t, fx.root), snapshot(t, fx.outside)
				err := withinDeadline(t, func() error { return w.write(fx.r, tc.path, payload, tc.mkdirParents) })
				if !errors.Is(err, tc.want) {
					t.Errorf("%s(%q) error %v, want %v", w.name, tc.path, err, tc.want)
				}
				sameSnapshot(t, "worktree", tree, snapshot(t, fx.root))
				sameSnapshot(t, "outside directory", outside, snapshot(t, fx.outside))
			})
		}
	}

	t.Run("WriteFile creates, then replaces in place", func(t *testing.T) {
		fx := newFixture(t)
		must(t, fx.r.WriteFile(".ai/tmp/work/w/decisions/000001.json", []byte("a long first record"), true))
		must(t, fx.r.WriteFile(".ai/tmp/work/w/decisions/000001.json", payload, true))
		checkContents(t, fx, ".ai/tmp/work/w/decisions/000001.json", payload)
	})
	t.Run("AppendFile creates, then appends", func(t *testing.T) {
		fx := newFixture(t)
		must(t, fx.r.AppendFile(".orchestration/agent_trace.jsonl", []byte("one\n"), true))
		must(t, fx.r.AppendFile(".orchestration/agent_trace.jsonl", []byte("two\n"), true))
		checkContents(t, fx, ".orchestration/agent_trace.jsonl", []byte("one\ntwo\n"))
	})

	t.Run("creates a new file", func(t *testing.T) {
		fx := newFixture(t)
		must(t, fx.r.WriteFileAtomic("src/new.ts", payload, false))
		checkContents(t, fx, "src/new.ts", payload)
	})
	t.Run("creates parent directories", func(t *testing.T) {
		fx := newFixture(t)
		must(t, fx.r.WriteFileAtomic("a/b/c/new.ts", payload, true))
		checkContents(t, fx, "a/b/c/new.ts", payload)
	})
	t.Run("replaces an existing file and keeps its mode", func(t *testing.T) {
		fx := newFixture(t)
		target := filepath.Join(fx.root, "src/app.ts")
		must(t, os.Chmod(target, 0o751))
		must(t, fx.r.WriteFileAtomic("src/app.ts", payload, false))
		checkContents(t, fx, "src/app.ts", payload)
		if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0o751 {
			t.Errorf("mode after replace: %v, %v; want 0751", info.Mode(), err)
		}
	})
	t.Run("keeps mode 000 of a replaced file", func(t *testing.T) {
		fx := newFixture(t)
		target := filepath.Join(fx.root, "src/app.ts")
		must(t, os.Chmod(target, 0))
		must(t, fx.r.WriteFileAtomic("src/app.ts", payload, false))
		if info, err := os.Stat(target); err != nil || info.Mode().Perm() != 0 {
			t.Errorf("mode after replace: %v, %v; want 0000", info.Mode(), err)
		}
	})
	t.Run("does not carry setuid over to new contents", func(t *testing.T) {
		fx := newFixture(t)
		target := filepath.Join(fx.root, "src/app.ts")
		must(t, os.Chmod(target, 0o755|os.ModeSetuid))
		must(t, fx.r.WriteFileAtomic("src/app.ts", payload, false))
		if info, err := os.Stat(target); err != nil || info.Mode() != 0o755 {
			t.Errorf("mode after replace: %v, %v; want 0755", info.Mode(), err)
		}
	})
	t.Run("writes into the state directory", func(t *testing.T) {
		fx := newFixture(t)
		must(t, fx.r.WriteFileAtomic(".ai/tmp/work/w1/plan.json", payload, true))
		checkContents(t, fx, ".ai/tmp/work/w1/plan.json", payload)
	})
	t.Run("writes an empty file", func(t *testing.T) {
		fx := newFixture(t)
		must(t, fx.r.WriteFileAtomic("README.md", nil, false))
		checkContents(t, fx, "README.md", []byte{})
	})
	t.Run("leaves no temporary file behind", func(t *testing.T) {
		fx := newFixture(t)
		must(t, fx.r.WriteFileAtomic("src/app.ts", payload, false))
		_ = fx.r.WriteFileAtomic("src", payload, false) // refused: a directory
		entries, err := os.ReadDir(filepath.Join(fx.root, "src"))
		must(t, err)
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".mcpc-write-") {
				t.Errorf("temporary file left behind: %s", e.Name())
			}
		}
	})
	t.Run("replacing an in-tree hard link is refused and leaves both names", func(t *testing.T) {
		fx := newFixture(t)
		tree := snapshot(t, fx.root)
		if err := fx.r.WriteFileAtomic("src/h2.ts", payload, false); !errors.Is(err, ErrHardLinked) {
			t.Errorf("error %v, want ErrHardLinked", err)
		}
		sameSnapshot(t, "worktree", tree, snapshot(t, fx.root))
	})
}

func checkContents(t *testing.T, fx *fixture, canonical string, want []byte) {
	t.Helper()
	got, err := fx.r.ReadFile(canonical, 1<<20)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("contents of %s: %q, %v; want %q", canonical, got, err, want)
	}
	if f := fx.r.Resolve(canonical); !ioSafe(f) || !f.Regular {
		t.Errorf("facts after writing %s: %+v", canonical, f)
	}
}

func TestSub(t *testing.T) {
	t.Run("creates the scratch folder and confines I/O to it", func(t *testing.T) {
		fx := newFixture(t)
		sub, err := fx.r.Sub(".ai/tmp/work/w1/scratch")
		must(t, err)
		if want := filepath.Join(fx.root, ".ai/tmp/work/w1/scratch"); sub.Root() != want {
			t.Fatalf("Root() = %s, want %s", sub.Root(), want)
		}
		must(t, sub.WriteFileAtomic("notes/a.md", []byte("scratch\n"), true))
		if data, err := fx.r.ReadFile(".ai/tmp/work/w1/scratch/notes/a.md", 1<<10); err != nil || string(data) != "scratch\n" {
			t.Errorf("scratch file through the parent resolver: %q, %v", data, err)
		}
		if f := sub.Resolve("../../../../../src/app.ts"); f.Canonical != "" || !strings.Contains(strings.Join(f.Problems, ","), traversal) {
			t.Errorf("climbing out of the scratch folder: %+v", f)
		}
		if f := sub.Resolve("notes/a.md"); !f.Valid {
			t.Errorf("scratch file facts: %+v", f)
		}
		if _, err := sub.ReadFile("../../../../../src/app.ts", 1<<10); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("ReadFile out of the scratch folder: %v", err)
		}
	})
	t.Run("is idempotent", func(t *testing.T) {
		fx := newFixture(t)
		_, err := fx.r.Sub("src/dir")
		must(t, err)
		_, err = fx.r.Sub("src/dir")
		must(t, err)
	})
	refusals := []struct {
		note, rel string
		want      error
	}{
		{"through a symlinked directory", "links/in-dir/scratch", ErrSymlink},
		{"a symlink to an outside directory", "links/out-dir", ErrSymlink},
		{"traversal", "../elsewhere", ErrInvalidPath},
		{"absolute", "/tmp/x", ErrInvalidPath},
		{"the root itself", ".", ErrInvalidPath},
		{"empty", "", ErrInvalidPath},
		{"inside .git", ".git/scratch", ErrGitInternal},
		{"a regular file", "src/app.ts", syscall.ENOTDIR},
	}
	for _, tc := range refusals {
		t.Run("refuses "+tc.note, func(t *testing.T) {
			fx := newFixture(t)
			tree, outside := snapshot(t, fx.root), snapshot(t, fx.outside)
			if sub, err := fx.r.Sub(tc.rel); !errors.Is(err, tc.want) || sub != nil {
				t.Errorf("Sub(%q) = %v, %v; want error %v", tc.rel, sub, err, tc.want)
			}
			sameSnapshot(t, "worktree", tree, snapshot(t, fx.root))
			sameSnapshot(t, "outside directory", outside, snapshot(t, fx.outside))
		})
	}
}

func TestNew(t *testing.T) {
	fx := newFixture(t)
	t.Run("resolves a symlinked root", func(t *testing.T) {
		link := filepath.Join(fx.base, "repo-link")
		must(t, os.Symlink(fx.root, link))
		r, err := New(link)
		must(t, err)
		if r.Root() != fx.root {
			t.Errorf("Root() = %s, want %s", r.Root(), fx.root)
		}
	})
	t.Run("makes a relative root absolute", func(t *testing.T) {
		t.Chdir(fx.base)
		r, err := New("repo")
		must(t, err)
		if r.Root() != fx.root {
			t.Errorf("Root() = %s, want %s", r.Root(), fx.root)
		}
	})
	for _, bad := range []string{"", filepath.Join(fx.base, "missing"), filepath.Join(fx.root, "README.md")} {
		t.Run("refuses "+bad, func(t *testing.T) {
			if r, err := New(bad); err == nil {
				t.Errorf("New(%q) = %v, want an error", bad, r.Root())
			}
		})
	}
}

func TestFactsDetails(t *testing.T) {
	fx := newFixture(t)
	t.Run("size and links of a plain file", func(t *testing.T) {
		f := fx.r.Resolve("src/app.ts")
		if f.Size != int64(len(appTS)) || f.Links != 1 {
			t.Errorf("size %d links %d", f.Size, f.Links)
		}
	})
	t.Run("links of a hard-linked file", func(t *testing.T) {
		if f := fx.r.Resolve("src/h1.ts"); f.Links != 2 {
			t.Errorf("links %d, want 2", f.Links)
		}
	})
	t.Run("size is the target's through an in-tree symlink", func(t *testing.T) {
		if f := fx.r.Resolve("links/in-file"); f.Size != int64(len(appTS)) {
			t.Errorf("size %d", f.Size)
		}
	})
	t.Run("directories report no size and are not hard-linked", func(t *testing.T) {
		f := fx.r.Resolve("src")
		if f.Size != 0 || f.Links < 2 || strings.Contains(strings.Join(f.Problems, ","), hardLinked) {
			t.Errorf("%+v", f)
		}
	})
	t.Run("JSON uses lowerCamel names and an empty problem list", func(t *testing.T) {
		data, err := json.Marshal(fx.r.Resolve("src/app.ts"))
		must(t, err)
		want := `{"raw":"src/app.ts","canonical":"src/app.ts","valid":true,"problems":[],"exists":true,"regular":true,"dir":false,"size":22,"links":1}`
		if string(data) != want {
			t.Errorf("JSON\n got %s\nwant %s", data, want)
		}
	})
	t.Run("path length limit is measured below the root", func(t *testing.T) {
		budget := maxPathBytes - 1 - len(fx.root) - 1 // longest canonical path that still fits
		fits := longPath(budget)
		if f := fx.r.Resolve(fits); f.Canonical != fits || strings.Contains(strings.Join(f.Problems, ","), tooLong) {
			t.Errorf("path of %d bytes below the root: %v", len(fits), f.Problems)
		}
		over := longPath(budget + 1)
		if f := fx.r.Resolve(over); f.Canonical != "" || strings.Join(f.Problems, ",") != tooLong {
			t.Errorf("path of %d bytes below the root: %q %v", len(over), f.Canonical, f.Problems)
		}
		if err := fx.r.WriteFileAtomic(over, []byte("x"), true); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("WriteFileAtomic of an over-long path: %v", err)
		}
	})
}

// longPath returns a path of exactly n bytes made of short components.
func longPath(n int) string {
	var b strings.Builder
	for b.Len()+2 < n {
		b.WriteString("d/")
	}
	b.WriteString(strings.Repeat("f", n-b.Len()))
	return b.String()
}
