package indexer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// candidate is a file the walk found that may need indexing.
type candidate struct {
	Rel     string
	Abs     string
	Size    int64
	ModTime int64
}

// walker lists a workspace's indexable files, honouring the default
// excludes, Options.Exclude and every .gitignore on the way down. It follows
// symlinks inside the tree but reports a link that leads back into a
// directory it is already under as a symlink loop.
type walker struct {
	root     string
	maxBytes int64
	files    []candidate
	problems []Problem
	skipped  int
}

func (w *walker) walk(ctx context.Context, extra []string) error {
	rootSet := &ignoreSet{}
	for _, p := range append(append([]string{}, defaultExcludes...), extra...) {
		if r, ok := compileIgnoreRule(p); ok {
			rootSet.rules = append(rootSet.rules, r)
		}
	}
	real, err := filepath.EvalSymlinks(w.root)
	if err != nil {
		return err
	}
	return w.dir(ctx, w.root, "", ignoreStack{rootSet}, map[string]bool{real: true})
}

// dir walks one directory. active holds the real paths of the directories
// on the current path, which is what makes a symlink a loop.
func (w *walker) dir(ctx context.Context, abs, rel string, stack ignoreStack, active map[string]bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		w.problem(rel, ProblemUnreadable, err.Error())
		return nil
	}
	if data, ok := readSmallFile(filepath.Join(abs, ".gitignore")); ok {
		stack = append(stack[:len(stack):len(stack)], parseIgnore(rel, data))
	}
	for _, e := range entries {
		name := e.Name()
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		childAbs := filepath.Join(abs, name)
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			// Links are never followed: one may lead out of the worktree
			// or to a device or FIFO, and pathscope refuses to read through
			// them anyway, so a linked file could never be in a usable pack.
			if !stack.ignored(childRel, false) {
				w.problem(childRel, ProblemSymlink, "symbolic link not followed")
			}
			continue
		}
		if e.IsDir() {
			if neverIndexed(childRel) || stack.ignored(childRel, true) {
				continue
			}
			w.enter(ctx, childAbs, childRel, stack, active, childAbs)
			continue
		}
		if !mode.IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				w.problem(childRel, ProblemVanished, "file vanished during the walk")
			} else {
				w.problem(childRel, ProblemUnreadable, err.Error())
			}
			continue
		}
		w.file(childAbs, childRel, info, stack)
	}
	return nil
}

func (w *walker) enter(ctx context.Context, abs, rel string, stack ignoreStack, active map[string]bool, real string) {
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	active[real] = true
	_ = w.dir(ctx, abs, rel, stack, active)
	delete(active, real)
}

func (w *walker) file(abs, rel string, info fs.FileInfo, stack ignoreStack) {
	if stack.ignored(rel, false) {
		return
	}
	if binaryExtensions[strings.ToLower(path.Ext(rel))] {
		w.skipped++
		return
	}
	if info.Size() > w.maxBytes {
		w.problem(rel, ProblemTooLarge, "larger than the index's size limit")
		return
	}
	w.files = append(w.files, candidate{Rel: rel, Abs: abs, Size: info.Size(), ModTime: info.ModTime().UnixNano()})
}

func (w *walker) problem(rel, kind, msg string) {
	w.skipped++
	w.problems = append(w.problems, Problem{File: rel, Kind: kind, Message: msg})
}
