//go:build unix

package pathscope

import (
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// outsideMarker is in every file outside the worktree and in no file inside
// it, so any read that returns it has escaped.
const outsideMarker = "OUTSIDE-SECRET-MUST-NEVER-BE-READ"

const appTS = "export const app = 1;\n"

// fixture is a real worktree with every kind of hazard an agent could point
// at, next to an "outside" directory that must never be read or changed.
type fixture struct {
	base    string // parent of both
	root    string // the worktree, symlinks resolved
	outside string // a sibling of root
	r       *Resolver
}

// newFixture builds:
//
//	base/outside/secret.txt, hl-secret.txt  (contain outsideMarker)
//	base/repo/                               (the worktree)
//	  src/app.ts src/util/strings.ts src/dir/b.ts src/h1.ts=src/h2.ts (hard links)
//	  README.md empty.txt .gitignore "..." "my file.ts" "file%20name.txt" café.ts
//	  .git/config .git/HEAD .GIT/HEAD .ai/tmp/mcpc.db .ai/config/base.json
//	  hardlink-out.txt (a hard link to outside/hl-secret.txt)
//	  pipe.fifo sock
//	  links/...                              (see symlinks below)
func newFixture(t testing.TB) *fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	fx := &fixture{base: base, root: filepath.Join(base, "repo"), outside: filepath.Join(base, "outside")}

	files := map[string]string{
		"outside/secret.txt":        outsideMarker + " secret\n",
		"outside/hl-secret.txt":     outsideMarker + " hard-linked\n",
		"repo/src/app.ts":           appTS,
		"repo/src/util/strings.ts":  "export const s = 'x';\n",
		"repo/src/dir/b.ts":         "export const b = 2;\n",
		"repo/src/h1.ts":            "hard linked inside the tree\n",
		"repo/README.md":            "# fixture\n",
		"repo/empty.txt":            "",
		"repo/.gitignore":           "node_modules/\n",
		"repo/...":                  "three dots\n",
		"repo/my file.ts":           "spaces\n",
		"repo/file%20name.txt":      "a literal percent sign\n",
		"repo/café.ts":              "nfc\n",
		"repo/.git/config":          "[core]\n\tbare = false\n",
		"repo/.git/HEAD":            "ref: refs/heads/main\n",
		"repo/.GIT/HEAD":            "ref: refs/heads/case\n",
		"repo/.ai/tmp/mcpc.db":      "state\n",
		"repo/.ai/config/base.json": "{}\n",
	}
	for rel, content := range files {
		p := filepath.Join(base, filepath.FromSlash(rel))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
	must(t, os.Link(filepath.Join(fx.root, "src/h1.ts"), filepath.Join(fx.root, "src/h2.ts")))
	must(t, os.Link(filepath.Join(fx.outside, "hl-secret.txt"), filepath.Join(fx.root, "hardlink-out.txt")))
	must(t, syscall.Mkfifo(filepath.Join(fx.root, "pipe.fifo"), 0o644))
	ln, err := net.Listen("unix", filepath.Join(fx.root, "sock"))
	must(t, err)
	t.Cleanup(func() { ln.Close() })

	links := map[string]string{
		"in-file":      "../src/app.ts",
		"in-dir":       "../src",
		"abs-in":       filepath.Join(fx.root, "src/app.ts"),
		"chain1":       "chain2",
		"chain2":       "../src/app.ts",
		"out-and-back": "../../repo/src/app.ts",
		"root":         "..",
		"git":          "../.git",
		"state":        "../.ai/tmp",
		"out-file":     filepath.Join(fx.outside, "secret.txt"),
		"out-rel":      "../../outside/secret.txt",
		"out-dir":      fx.outside,
		"up":           "../..",
		"dangling-in":  "../nope.ts",
		"dangling-out": "/nonexistent-mcpc-target/x",
		"loop-a":       "loop-b",
		"loop-b":       "loop-a",
		"self":         "self",
		"zero":         "/dev/zero",
		"out-loop":     filepath.Join(fx.outside, "loop"),
	}
	must(t, os.Symlink("loop", filepath.Join(fx.outside, "loop")))
	must(t, os.MkdirAll(filepath.Join(fx.root, "links"), 0o755))
	for name, target := range links {
		must(t, os.Symlink(target, filepath.Join(fx.root, "links", name)))
	}

	fx.r, err = New(fx.root)
	must(t, err)
	return fx
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot describes every entry below dir without following symlinks or
// opening anything but regular files, so before/after snapshots show any
// change an operation made.
func snapshot(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%s %v links=%d", p, info.Mode(), linkCount(info))
		switch {
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(data)
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			desc += " -> " + target
		}
		out = append(out, desc)
		return nil
	})
	must(t, err)
	slices.Sort(out)
	return out
}

func sameSnapshot(t testing.TB, what string, before, after []string) {
	t.Helper()
	if !slices.Equal(before, after) {
		t.Errorf("%s changed:\nbefore:\n  %s\nafter:\n  %s", what,
			strings.Join(before, "\n  "), strings.Join(after, "\n  "))
	}
}
