package indexer

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// candidate is a file the walk found that may need indexing.
type candidate struct {
	Rel     string
	Abs     string
	Size    int64
	ModTime int64
}

// walker lists a workspace's indexable files, honouring the default
// excludes, Options.Exclude and every .gitignore on the way down. It never
// follows a symbolic link; it reports each one it does not ignore.
type walker struct {
	root     string
	maxBytes int64
	files    []candidate
	problems []Problem
	skipped  int
	// prev holds the directory listings of the previous walk by the same
	// Index, next those of this one (see listing).
	prev, next map[string]*listing
	stale      bool // a .gitignore changed: prev cannot be trusted
	reused     int  // directories walked from prev
}

// listing is what one directory contributed to a walk, before any file was
// stat'ed: its subdirectories and files that survived the ignore rules and
// the problems and skips it reported. A directory whose modification time
// and .gitignore are unchanged has the same entries, so the next walk by a
// long-lived Index re-reads neither it nor its .gitignore and matches no
// rules: it only stats the files for their size and modification time.
type listing struct {
	mtime    int64 // of the directory
	listedAt int64 // when it was read
	ignore   stamp // of its .gitignore
	stack    ignoreStack
	dirs     []string // names of subdirectories to enter
	files    []string // names of files to stat
	problems []Problem
	skipped  int
}

// stamp identifies one state of a file; the zero stamp means absent.
type stamp struct {
	size, mtime int64
}

// racyWindow is how long after a directory changed its listing is not
// reused: a file added within the same timestamp tick as the listing would
// otherwise leave the directory's modification time unchanged.
const racyWindow = int64(time.Second)

func (w *walker) walk(ctx context.Context, extra []string) error {
	rootSet := &ignoreSet{}
	for _, p := range append(append([]string{}, defaultExcludes...), extra...) {
		if r, ok := compileIgnoreRule(p); ok {
			rootSet.rules = append(rootSet.rules, r)
		}
	}
	if _, err := filepath.EvalSymlinks(w.root); err != nil {
		return err
	}
	w.next = map[string]*listing{}
	if err := w.dir(ctx, w.root, "", ignoreStack{rootSet}); err != nil {
		return err
	}
	if w.stale {
		// Rules above some listings changed: walk again, reading all.
		*w = walker{root: w.root, maxBytes: w.maxBytes} // no prev
		return w.walk(ctx, extra)
	}
	return nil
}

func stampOf(abs string) stamp {
	info, err := os.Lstat(abs)
	if err != nil {
		return stamp{}
	}
	return stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}
}

// reuse walks a directory from its previous listing if it is still valid.
// It stats the directory's entries relative to an open handle on it, which
// spares the kernel resolving every file's full path again.
func (w *walker) reuse(ctx context.Context, abs, rel string) bool {
	old := w.prev[rel]
	if old == nil {
		return false
	}
	fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	// A .gitignore that appeared, changed or vanished also changes the
	// rules of every listing below: walk again, reading all.
	var st unix.Stat_t
	ignore := stamp{}
	if unix.Fstatat(fd, ".gitignore", &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		ignore = stamp{size: st.Size, mtime: st.Mtim.Nano()}
	}
	if ignore != old.ignore {
		w.stale = true
		return false
	}
	if unix.Fstat(fd, &st) != nil || st.Mtim.Nano() != old.mtime || old.listedAt-old.mtime < racyWindow {
		return false
	}
	w.next[rel] = old
	w.reused++
	w.problems = append(w.problems, old.problems...)
	w.skipped += old.skipped
	for _, name := range old.files {
		childRel, childAbs := join(rel, name), abs+string(filepath.Separator)+name
		err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			w.problem(childRel, ProblemVanished, "file vanished during the walk")
		case err != nil:
			w.problem(childRel, ProblemUnreadable, (&fs.PathError{Op: "lstat", Path: childAbs, Err: err}).Error())
		case st.Mode&unix.S_IFMT != unix.S_IFREG:
			w.stale = true // replaced by something else: walk again, reading all
		case st.Size > w.maxBytes:
			w.problem(childRel, ProblemTooLarge, "larger than the index's size limit")
		default:
			w.files = append(w.files, candidate{Rel: childRel, Abs: childAbs, Size: st.Size, ModTime: st.Mtim.Nano()})
		}
	}
	for _, name := range old.dirs {
		_ = w.dir(ctx, abs+string(filepath.Separator)+name, join(rel, name), old.stack)
	}
	return true
}

func join(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// dir walks one directory. Links are never followed, so every directory it
// enters is a real one inside the tree and no walk can loop.
func (w *walker) dir(ctx context.Context, abs, rel string, stack ignoreStack) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.reuse(ctx, abs, rel) {
		return nil
	}
	l := &listing{listedAt: time.Now().UnixNano(), ignore: stampOf(filepath.Join(abs, ".gitignore"))}
	info, err := os.Lstat(abs)
	if err == nil {
		l.mtime = info.ModTime().UnixNano()
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		w.problem(rel, ProblemUnreadable, err.Error())
		return nil
	}
	if data, ok := readSmallFile(filepath.Join(abs, ".gitignore")); ok {
		stack = append(stack[:len(stack):len(stack)], parseIgnore(rel, data))
	}
	l.stack = stack
	w.next[rel] = l
	var subdirs []string
	for _, e := range entries {
		name := e.Name()
		childRel := join(rel, name)
		childAbs := filepath.Join(abs, name)
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			// Links are never followed: one may lead out of the worktree
			// or to a device or FIFO, and pathscope refuses to read through
			// them anyway, so a linked file could never be in a usable pack.
			if !stack.ignored(childRel, false) {
				p := Problem{File: childRel, Kind: ProblemSymlink, Message: "symbolic link not followed"}
				l.problems = append(l.problems, p)
				w.problem(p.File, p.Kind, p.Message)
			}
			continue
		}
		if e.IsDir() {
			if neverIndexed(childRel) || stack.ignored(childRel, true) {
				continue
			}
			l.dirs = append(l.dirs, name)
			subdirs = append(subdirs, name)
			continue
		}
		if !mode.IsRegular() || pathscope.IsStagedName(name) || stack.ignored(childRel, false) {
			continue
		}
		if binaryExtensions[strings.ToLower(path.Ext(childRel))] {
			l.skipped++
			w.skipped++
			continue
		}
		l.files = append(l.files, name)
		info, err := e.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				w.problem(childRel, ProblemVanished, "file vanished during the walk")
			} else {
				w.problem(childRel, ProblemUnreadable, err.Error())
			}
			continue
		}
		w.file(childAbs, childRel, info)
	}
	for _, name := range subdirs {
		_ = w.dir(ctx, filepath.Join(abs, name), join(rel, name), stack)
	}
	return nil
}

func (w *walker) file(abs, rel string, info fs.FileInfo) {
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
