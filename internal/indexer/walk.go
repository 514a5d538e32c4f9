package indexer

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpc/mcpc/internal/fswatch"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// candidate is a file the walk found that may need indexing. It holds no
// absolute path: a serving process keeps every directory's candidates for
// the next walk (listing.cands), and a second copy of every path was 6 MB
// of its heap at 47,870 files; the few files a refresh reads join it to
// the root then.
type candidate struct {
	Rel     string
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
	listed     int  // directories read
	// watch, when not nil, watches each directory before it is read;
	// dirty holds the directories it saw change since prev (nil when it
	// cannot vouch: then no listing is clean). unwatched counts the
	// directories it could not watch.
	watch     *fswatch.Watcher
	dirty     map[string]bool
	vouch     bool
	unwatched int
	// found, when not nil, is called with each file dir lists, as it lists
	// it (Refresh's streamed walk: only a walk without previous listings,
	// where dir is the only one to list files).
	found func(candidate)
}

// listing is what one directory contributed to a walk, before any file was
// stat'ed: its subdirectories and files that survived the ignore rules and
// the problems and skips it reported. A directory whose modification time
// and .gitignore are unchanged has the same entries, so the next walk by a
// long-lived Index re-reads neither it nor its .gitignore and matches no
// rules: it only stats the files for their size and modification time.
type listing struct {
	// The directory's modification and change times: a tool can set the
	// modification time back after adding an entry (touch -d, tar, rsync
	// -t), never the change time, which any entry's change moves too.
	mtime, ctime int64
	listedAt     int64 // when it was read
	ignore       stamp // of its .gitignore
	stack        ignoreStack
	rules        *ignoreSet // what its own .gitignore added to stack, or nil
	dirs         []string   // names of subdirectories to enter
	files        []string   // names of files to stat
	problems     []Problem
	skipped      int
	// What the directory's own files added to the walk, their stats
	// included, and the watcher's epoch they were stat'ed under (0: not
	// watched): a clean listing (walker.clean) is walked from these alone.
	cands       []candidate
	ownProblems []Problem
	ownSkipped  int
	epoch       uint64
}

// own records, after a directory's own entries were walked, what they
// added since the walk stood at files, problems and skipped entries.
func (l *listing) own(w *walker, files, problems, skipped int, epoch uint64) {
	l.cands = w.files[files:len(w.files):len(w.files)]
	l.ownProblems = w.problems[problems:len(w.problems):len(w.problems)]
	l.ownSkipped = w.skipped - skipped
	l.epoch = epoch
}

// stamp identifies one state of a file; the zero stamp means absent.
type stamp struct {
	size, mtime int64
}

// racyWindow is how long after a directory changed its listing is not
// reused: a file added within the same timestamp tick as the listing would
// otherwise leave the directory's modification time unchanged.
const racyWindow = int64(time.Second)

// rootIgnores is the rule set every walk starts from: the default
// excludes and the configured ones.
func rootIgnores(extra []string) *ignoreSet {
	set := &ignoreSet{}
	for _, p := range append(append([]string{}, defaultExcludes...), extra...) {
		if r, ok := compileIgnoreRule(p); ok {
			set.rules = append(set.rules, r)
		}
	}
	return set
}

func (w *walker) walk(ctx context.Context, extra []string) error {
	rootSet := rootIgnores(extra)
	if _, err := filepath.EvalSymlinks(w.root); err != nil {
		return err
	}
	w.next = map[string]*listing{}
	// Clean once: dir appends names to it without Join's Clean.
	if err := w.dir(ctx, filepath.Clean(w.root), "", ignoreStack{rootSet}); err != nil {
		return err
	}
	if w.stale {
		// Rules above some listings changed: walk again, reading all.
		*w = walker{root: w.root, maxBytes: w.maxBytes, watch: w.watch} // no prev
		return w.walk(ctx, extra)
	}
	return nil
}

// walkEarly is a watching Index's first walk, begun by Open before it
// reads the stamps: the walk needs none of them, and on a new serving
// process's two cores the stamps' read (0.1 CPU-s at 47,550 files) and the
// walk (0.2) then overlap instead of adding up. It keeps what a refresh's
// walk keeps for the next, the listings and the watches, so the first
// Refresh walks them from memory (walker.clean) wherever the watcher saw
// no change since, and stats and reads only what changed. A walk that
// fails leaves the first Refresh to walk everything and report the error.
// The caller holds refreshMu; walkEarly releases it.
func (ix *Index) walkEarly() {
	defer ix.refreshMu.Unlock()
	w := &walker{root: ix.opts.Root, maxBytes: ix.opts.MaxFileBytes, prev: ix.previousListings()}
	w.dirty, w.vouch = ix.watched.begin()
	w.watch = ix.watched.w
	if err := w.walk(context.Background(), ix.opts.Exclude); err != nil {
		ix.watched.failed()
		return
	}
	ix.walked(w)
}

// previousListings is what the next walk starts from: the last walk's
// listings, or for a process's first walk those a previous process left;
// the caller holds refreshMu.
func (ix *Index) previousListings() map[string]*listing {
	if ix.listings == nil && !ix.listingsRead {
		ix.listingsRead = true
		return ix.storedListings()
	}
	return ix.listings
}

// walked keeps a finished walk's listings for the next; the caller holds
// refreshMu.
func (ix *Index) walked(w *walker) {
	ix.listings = w.next
	if w.listed > 0 {
		ix.listingsChanged = true
	}
}

// reuse walks a directory from its previous listing if it is still valid.
// It stats the directory's entries relative to an open handle on it, which
// spares the kernel resolving every file's full path again.
func (w *walker) reuse(ctx context.Context, abs, rel string, epoch uint64) bool {
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
	if unix.Fstat(fd, &st) != nil || st.Mtim.Nano() != old.mtime || st.Ctim.Nano() != old.ctime || old.listedAt-old.mtime < racyWindow {
		return false
	}
	l := *old
	w.next[rel] = &l
	w.reused++
	files, problems, skipped := len(w.files), len(w.problems), w.skipped
	// A listing's problems (links) were skipped entries too (problem).
	w.problems = append(w.problems, old.problems...)
	w.skipped += old.skipped + len(old.problems)
	for _, name := range old.files {
		childRel := join(rel, name)
		err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			w.problem(childRel, ProblemVanished, "file vanished during the walk")
		case err != nil:
			w.problem(childRel, ProblemUnreadable, (&fs.PathError{Op: "lstat", Path: joinAbs(abs, name), Err: err}).Error())
		case st.Mode&unix.S_IFMT != unix.S_IFREG:
			w.stale = true // replaced by something else: walk again, reading all
		case st.Size > w.maxBytes:
			w.problem(childRel, ProblemTooLarge, "larger than the index's size limit")
		default:
			w.files = append(w.files, candidate{Rel: childRel, Size: st.Size, ModTime: st.Mtim.Nano()})
		}
	}
	l.own(w, files, problems, skipped, epoch)
	for _, name := range old.dirs {
		_ = w.dir(ctx, joinAbs(abs, name), join(rel, name), old.stack)
	}
	return true
}

// clean walks a directory from its previous listing without a system
// call when the watcher vouches for it: the listing's files were stat'ed
// while the directory was watched, in this epoch, and no event named the
// directory since. Every change a walk would see (an entry added, removed
// or renamed, a file written or touched, the directory's .gitignore) is
// an event on the directory that holds it, so its entries and their stats
// are those of the last walk.
func (w *walker) clean(ctx context.Context, abs, rel string, epoch uint64) bool {
	old := w.prev[rel]
	if old == nil || !w.vouch || epoch == 0 || old.epoch != epoch || w.dirty[rel] {
		return false
	}
	w.next[rel] = old
	w.reused++
	w.files = append(w.files, old.cands...)
	w.problems = append(w.problems, old.ownProblems...)
	w.skipped += old.ownSkipped
	for _, name := range old.dirs {
		_ = w.dir(ctx, joinAbs(abs, name), join(rel, name), old.stack)
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
// enters is a real one inside the tree and no walk can loop. It opens the
// directory once and stats its entries relative to that handle, as reuse
// does: the kernel resolves each name in the open directory instead of
// walking the whole path again, and a directory swapped for a link after
// its parent was listed is not opened (O_NOFOLLOW below the root).
func (w *walker) dir(ctx context.Context, abs, rel string, stack ignoreStack) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var epoch uint64
	if w.watch != nil {
		// Before the directory is read: a change after this is an event.
		if w.watch.Add(abs, rel) {
			epoch = w.watch.Epoch()
		} else {
			w.unwatched++
		}
	}
	if w.clean(ctx, abs, rel, epoch) || w.reuse(ctx, abs, rel, epoch) {
		return nil
	}
	l := &listing{listedAt: time.Now().UnixNano()}
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if rel != "" {
		flags |= unix.O_NOFOLLOW
	}
	// Opened blocking and wrapped with NewFile: os.OpenFile would offer a
	// directory to the poller and switch it to non-blocking and back, three
	// system calls per directory for nothing.
	fd, err := unix.Open(abs, flags, 0)
	if err != nil {
		w.problem(rel, ProblemUnreadable, (&fs.PathError{Op: "open", Path: abs, Err: err}).Error())
		return nil
	}
	f := os.NewFile(uintptr(fd), abs)
	defer f.Close()
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil {
		l.mtime, l.ctime = st.Mtim.Nano(), st.Ctim.Nano()
	}
	if unix.Fstatat(fd, ".gitignore", &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		l.ignore = stamp{size: st.Size, mtime: st.Mtim.Nano()}
		if data, ok := readIgnoreAt(fd, abs); ok {
			l.rules = parseIgnore(rel, data)
			stack = append(stack[:len(stack):len(stack)], l.rules)
		}
	}
	entries, err := f.ReadDir(-1)
	if err != nil {
		w.problem(rel, ProblemUnreadable, err.Error())
		return nil
	}
	// In name order, as os.ReadDir returns them: the order of the files
	// and problems the walk reports.
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	l.stack = stack
	w.next[rel] = l
	w.listed++
	files, problems, skipped := len(w.files), len(w.problems), w.skipped
	var subdirs []string
	for _, e := range entries {
		name := e.Name()
		childRel := join(rel, name)
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
		if binaryExtensions[strings.ToLower(path.Ext(name))] {
			l.skipped++
			w.skipped++
			continue
		}
		l.files = append(l.files, name)
		switch err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); {
		case errors.Is(err, fs.ErrNotExist):
			w.problem(childRel, ProblemVanished, "file vanished during the walk")
		case err != nil:
			w.problem(childRel, ProblemUnreadable, (&fs.PathError{Op: "lstat", Path: joinAbs(abs, name), Err: err}).Error())
		case st.Size > w.maxBytes:
			w.problem(childRel, ProblemTooLarge, "larger than the index's size limit")
		default:
			w.files = append(w.files, candidate{Rel: childRel, Size: st.Size, ModTime: st.Mtim.Nano()})
			if w.found != nil {
				w.found(w.files[len(w.files)-1])
			}
		}
	}
	l.own(w, files, problems, skipped, epoch)
	for _, name := range subdirs {
		_ = w.dir(ctx, joinAbs(abs, name), join(rel, name), stack)
	}
	return nil
}

// joinAbs is filepath.Join for a clean directory and one name, without
// Join's Clean pass over the whole path for every entry.
func joinAbs(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) { // the file system root
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// readIgnoreAt reads the .gitignore of the directory open as dirfd the
// way readSmallFile reads settings files: not through a link, not from a
// FIFO or device, and not past maxSmallFile.
func readIgnoreAt(dirfd int, dirAbs string) ([]byte, bool) {
	fd, err := unix.Openat(dirfd, ".gitignore", unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false
	}
	f := os.NewFile(uintptr(fd), joinAbs(dirAbs, ".gitignore"))
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxSmallFile {
		return nil, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSmallFile+1))
	if err != nil || len(data) > maxSmallFile {
		return nil, false
	}
	return data, true
}

func (w *walker) problem(rel, kind, msg string) {
	w.skipped++
	w.problems = append(w.problems, Problem{File: rel, Kind: kind, Message: msg})
}
