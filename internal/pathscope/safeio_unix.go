//go:build unix

package pathscope

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Every open below the root goes through openat on an already-open parent
// with O_NOFOLLOW, so a symlink anywhere (planted before or during the call)
// makes the call fail rather than lead somewhere else, and ".." never occurs
// because names are validated first. This is stricter than os.Root, which
// follows symlinks that stay inside the root: the policy saw "symlink" as a
// problem, so the I/O must not quietly follow one either. On Linux the
// directories are reached with one openat2 that refuses a link anywhere on
// the path (beneath_linux.go); the file itself is still opened here.

const (
	dirOpenFlags  = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fileReadFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY
	tempFileFlags = unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC
)

// ReadFile returns the contents of the regular, singly-linked file at the
// canonical path, refusing anything larger than maxBytes (ReadFileStamped
// without the stamp).
func (r *Resolver) ReadFile(canonical string, maxBytes int64) ([]byte, error) {
	data, _, err := r.ReadFileStamped(canonical, maxBytes)
	return data, err
}

// HashFile returns "sha256:<hex>" of the regular, singly-linked file at the
// canonical path, for stale-read checks.
func (r *Resolver) HashFile(canonical string) (string, error) {
	fd, _, err := r.openRegular(canonical)
	if err != nil {
		return "", err
	}
	defer unix.Close(fd)
	h := sha256.New()
	if _, err := io.Copy(h, fdReader(fd)); err != nil {
		return "", r.pathError("read", canonical, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// WriteFileAtomic replaces (or creates) the file at the canonical path with
// data: a temporary file in the same directory is written, fsynced and
// renamed over the target, then the directory is fsynced. Readers see the old
// or the new contents, never a mix. Missing parent directories are created
// when mkdirParents is set. An existing target keeps its permission bits and
// must be a regular, singly-linked file; a symlink is never followed, at the
// target or at any parent.
func (r *Resolver) WriteFileAtomic(canonical string, data []byte, mkdirParents bool) (err error) {
	dirfd, base, err := r.openParent(canonical, mkdirParents)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)

	// A new file gets 0644 less the umask, like os.WriteFile. A replaced one
	// keeps its rwx bits exactly, but never setuid/setgid/sticky: content
	// written for an agent must not inherit privileges.
	createPerm, keepPerm := uint32(0o644), fs.FileMode(0)
	st, replacing, err := existingTarget(dirfd, base)
	if err != nil {
		return r.pathError("write", canonical, err)
	}
	if replacing {
		createPerm, keepPerm = 0o600, fs.FileMode(st.Mode&0o777)
	}

	tmp, f, err := createTemp(dirfd, createPerm)
	if err != nil {
		return r.pathError("write", canonical, err)
	}
	defer func() {
		if err != nil {
			unix.Unlinkat(dirfd, tmp, 0)
		}
	}()
	if err := writeAndSync(f, data, keepPerm, replacing); err != nil {
		return r.pathError("write", canonical, err)
	}
	// renameat replaces the directory entry and never follows a symlink
	// planted at the target since the Fstatat above; a directory planted
	// there makes it fail.
	if err := ignoringEINTR(func() error { return unix.Renameat(dirfd, tmp, dirfd, base) }); err != nil {
		return r.pathError("write", canonical, err)
	}
	if err := unix.Fsync(dirfd); err != nil && !errors.Is(err, unix.EINVAL) {
		return r.pathError("write", canonical, err)
	}
	return nil
}

// WriteFile creates or replaces the contents of the file at the canonical
// path in place, without fsync: for mcpc's own records, whose durable copy
// is in the store. AppendFile adds data at the end of the file, creating it.
// Both follow no symlink at the target or at any parent, create missing
// parents when mkdirParents is set, and refuse a target that is not a
// regular, singly-linked file: it is checked before anything is written, so
// a hard link to a file outside the worktree is never truncated or grown.
func (r *Resolver) WriteFile(canonical string, data []byte, mkdirParents bool) error {
	return r.writeInPlace(canonical, data, mkdirParents, false)
}

// AppendFile: see WriteFile.
func (r *Resolver) AppendFile(canonical string, data []byte, mkdirParents bool) error {
	return r.writeInPlace(canonical, data, mkdirParents, true)
}

func (r *Resolver) writeInPlace(canonical string, data []byte, mkdirParents, appending bool) error {
	dirfd, base, err := r.openParent(canonical, mkdirParents)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	// What is there is refused before it is opened (a FIFO, socket or
	// directory), and again from fstat after, in case it was swapped.
	st, _, err := existingTarget(dirfd, base)
	if err != nil {
		return r.pathError("write", canonical, err)
	}
	// No O_TRUNC: truncation waits for the checks. O_NONBLOCK keeps a FIFO
	// swapped in from blocking the open.
	flags := unix.O_WRONLY | unix.O_CREAT | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY
	if appending {
		flags |= unix.O_APPEND
	}
	fd, err := ignoringEINTRValue(func() (int, error) { return unix.Openat(dirfd, base, flags, 0o644) })
	if err != nil {
		return r.pathError("write", canonical, classifyOpenError(dirfd, base, err))
	}
	// The descriptor is written with write(2), not through an os.File: a
	// regular file gains nothing from the poller, which would cost an
	// fcntl and a refused epoll_ctl on each of these writes (one a turn,
	// its decision record).
	closed := false
	defer func() {
		if !closed {
			unix.Close(fd)
		}
	}()
	if err := unix.Fstat(fd, &st); err != nil {
		return r.pathError("write", canonical, err)
	}
	if err := checkRegular(&st); err != nil {
		return r.pathError("write", canonical, err)
	}
	if !appending {
		if err := ignoringEINTR(func() error { return unix.Ftruncate(fd, 0) }); err != nil {
			return r.pathError("write", canonical, err)
		}
	}
	if err := writeAll(fd, data); err != nil {
		return r.pathError("write", canonical, err)
	}
	closed = true
	if err := unix.Close(fd); err != nil {
		return r.pathError("write", canonical, err)
	}
	return nil
}

// writeAll writes data to fd with write(2), however many calls it takes.
func writeAll(fd int, data []byte) error {
	for len(data) > 0 {
		n, err := ignoringEINTRValue(func() (int, error) { return unix.Write(fd, data) })
		if err != nil {
			return err
		}
		if n == 0 {
			return io.ErrShortWrite
		}
		data = data[n:]
	}
	return nil
}

// Remove deletes the file at the canonical path; a missing file is not an
// error. unlinkat removes the name itself, so a link there is removed, never
// what it points to.
func (r *Resolver) Remove(canonical string) error {
	dirfd, base, err := r.openParent(canonical, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	if err := unix.Unlinkat(dirfd, base, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return r.pathError("remove", canonical, err)
	}
	return nil
}

// ReadDirNames lists the names in the directory at the canonical path,
// reached without following a link.
func (r *Resolver) ReadDirNames(canonical string) ([]string, error) {
	names, err := r.ioNames(canonical)
	if err != nil {
		return nil, err
	}
	fd, err := r.openDirs(names, false)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), filepath.Join(r.root, canonical))
	defer f.Close()
	return f.Readdirnames(-1)
}

// Lock takes an exclusive lock on the file at the canonical path (created
// when missing, never through a link) and returns the function that
// releases it. It waits while another holder, in this process or another,
// keeps it; the kernel releases the lock of a process that dies.
func (r *Resolver) Lock(canonical string) (unlock func(), err error) {
	dirfd, base, err := r.openParent(canonical, true)
	if err != nil {
		return nil, err
	}
	defer unix.Close(dirfd)
	flags := unix.O_RDWR | unix.O_CREAT | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC | unix.O_NOCTTY
	fd, err := ignoringEINTRValue(func() (int, error) { return unix.Openat(dirfd, base, flags, 0o644) })
	if err != nil {
		return nil, r.pathError("lock", canonical, classifyOpenError(dirfd, base, err))
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err == nil {
		err = checkRegular(&st)
	}
	if err == nil {
		err = ignoringEINTR(func() error { return unix.Flock(fd, unix.LOCK_EX) })
	}
	if err != nil {
		unix.Close(fd)
		return nil, r.pathError("lock", canonical, err)
	}
	return func() { unix.Close(fd) }, nil // closing the descriptor releases the lock
}

// existingTarget looks at base in dirfd without following a link: absent
// (false), or a regular, singly-linked file (true, with its stat). Anything
// else is refused.
func existingTarget(dirfd int, base string) (unix.Stat_t, bool, error) {
	var st unix.Stat_t
	err := ignoringEINTR(func() error { return unix.Fstatat(dirfd, base, &st, unix.AT_SYMLINK_NOFOLLOW) })
	switch {
	case errors.Is(err, unix.ENOENT):
		return st, false, nil
	case err != nil:
		return st, false, err
	}
	return st, true, checkRegular(&st)
}

// openParent opens the directory that holds canonical (creating missing
// ones when mkdirParents is set) and returns it with the file's name in it.
// The caller closes the descriptor.
func (r *Resolver) openParent(canonical string, mkdirParents bool) (int, string, error) {
	names, err := r.ioNames(canonical)
	if err != nil {
		return -1, "", err
	}
	dirfd, err := r.openDirs(names[:len(names)-1], mkdirParents)
	if err != nil {
		return -1, "", err
	}
	return dirfd, names[len(names)-1], nil
}

// Sub creates (when missing) the directory rel below the root, without
// following symlinks, and returns a Resolver rooted there. It is used for a
// work's scratch folder, .ai/tmp/work/{id}/scratch.
func (r *Resolver) Sub(rel string) (*Resolver, error) {
	names, err := r.ioNames(rel)
	if err != nil {
		return nil, err
	}
	fd, err := r.openDirs(names, true)
	if err != nil {
		return nil, err
	}
	unix.Close(fd)
	return &Resolver{root: filepath.Join(r.root, filepath.FromSlash(rel))}, nil
}

// ioNames re-validates a canonical path for I/O and splits it. Only names
// that Resolve would find free of syntactic problems are accepted, and only
// in their canonical spelling, so the I/O cannot reach what policy could not
// have approved.
func (r *Resolver) ioNames(canonical string) ([]string, error) {
	syn := analyzeSyntax(canonical)
	if len(syn.problems) > 0 || syn.canonical != canonical || canonical == "." || r.tooLongBelowRoot(canonical) {
		return nil, r.pathError("open", canonical, ErrInvalidPath)
	}
	if isGitInternal(canonical) {
		return nil, r.pathError("open", canonical, ErrGitInternal)
	}
	return strings.Split(canonical, "/"), nil
}

// openRegular opens a regular, singly-linked file for reading and returns
// its descriptor, which the caller closes, with its fstat taken after the
// open. Non-regular files
// are refused from an lstat before opening (so a FIFO or device is normally
// never opened at all) and again from fstat after opening (in case one was
// swapped in between); O_NONBLOCK guarantees that even the swapped-in FIFO
// cannot block the open. The descriptor stays non-blocking: read(2) of a
// regular file ignores the flag, and handing it to os.File would cost three
// more system calls per read for a poller a regular file cannot use.
func (r *Resolver) openRegular(canonical string) (int, *unix.Stat_t, error) {
	names, err := r.ioNames(canonical)
	if err != nil {
		return -1, nil, err
	}
	dirfd, err := r.openDirs(names[:len(names)-1], false)
	if err != nil {
		return -1, nil, err
	}
	defer unix.Close(dirfd)
	base := names[len(names)-1]

	st := new(unix.Stat_t)
	if err := ignoringEINTR(func() error { return unix.Fstatat(dirfd, base, st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
		return -1, nil, r.pathError("open", canonical, err)
	}
	if err := checkRegular(st); err != nil {
		return -1, nil, r.pathError("open", canonical, err)
	}
	fd, err := ignoringEINTRValue(func() (int, error) { return unix.Openat(dirfd, base, fileReadFlags, 0) })
	if err != nil {
		return -1, nil, r.pathError("open", canonical, classifyOpenError(dirfd, base, err))
	}
	if err := unix.Fstat(fd, st); err != nil {
		unix.Close(fd)
		return -1, nil, r.pathError("open", canonical, err)
	}
	if err := checkRegular(st); err != nil {
		unix.Close(fd)
		return -1, nil, r.pathError("open", canonical, err)
	}
	return fd, st, nil
}

// fdReader reads a regular file's descriptor with read(2).
type fdReader int

func (fd fdReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := ignoringEINTRValue(func() (int, error) { return unix.Read(int(fd), p) })
	switch {
	case err != nil:
		return 0, err
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

// openDirs opens the directory reached by following dirs from the root, one
// component at a time with O_NOFOLLOW, creating missing ones when create is
// set. The caller closes the returned descriptor. Where the kernel can do
// the same walk in one call, it does (openDirsAtOnce).
func (r *Resolver) openDirs(dirs []string, create bool) (int, error) {
	if fd, ok := r.openDirsAtOnce(dirs); ok {
		return fd, nil
	}
	// The root itself was resolved by New; O_NOFOLLOW refuses it if it has
	// since been replaced by a symlink.
	fd, err := ignoringEINTRValue(func() (int, error) { return unix.Open(r.root, dirOpenFlags, 0) })
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: r.root, Err: err}
	}
	for i, name := range dirs {
		next, err := ignoringEINTRValue(func() (int, error) { return unix.Openat(fd, name, dirOpenFlags, 0) })
		if errors.Is(err, unix.ENOENT) && create {
			// EEXIST means someone else created it first; open decides what it is.
			if mkErr := unix.Mkdirat(fd, name, 0o755); mkErr != nil && !errors.Is(mkErr, unix.EEXIST) {
				unix.Close(fd)
				return -1, r.pathError("mkdir", strings.Join(dirs[:i+1], "/"), mkErr)
			}
			next, err = ignoringEINTRValue(func() (int, error) { return unix.Openat(fd, name, dirOpenFlags, 0) })
		}
		if err != nil {
			err = classifyOpenError(fd, name, err)
			unix.Close(fd)
			return -1, r.pathError("open", strings.Join(dirs[:i+1], "/"), err)
		}
		unix.Close(fd)
		fd = next
	}
	return fd, nil
}

// classifyOpenError turns the errno of a refused O_NOFOLLOW open into
// ErrSymlink when the entry is a symlink: Linux says ELOOP, the BSDs EMLINK,
// and with O_DIRECTORY some systems say ENOTDIR.
func classifyOpenError(dirfd int, name string, err error) error {
	if !errors.Is(err, unix.ELOOP) && !errors.Is(err, unix.EMLINK) && !errors.Is(err, unix.ENOTDIR) {
		return err
	}
	var st unix.Stat_t
	if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return ErrSymlink
	}
	return err
}

// checkRegular refuses anything but a regular file with a single link.
func checkRegular(st *unix.Stat_t) error {
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFLNK:
		return ErrSymlink
	default:
		return ErrNotRegular
	}
	if uint64(st.Nlink) > 1 {
		return ErrHardLinked
	}
	return nil
}

// createTemp creates a fresh, uniquely named file in dirfd. The name is
// fixed-length so that it fits NAME_MAX whatever the target's name is.
func createTemp(dirfd int, perm uint32) (string, *os.File, error) {
	for range 10 {
		var rnd [8]byte
		rand.Read(rnd[:])
		name := ".mcpc-write-" + hex.EncodeToString(rnd[:]) + ".tmp"
		fd, err := ignoringEINTRValue(func() (int, error) { return unix.Openat(dirfd, name, tempFileFlags, perm) })
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return "", nil, err
		}
		return name, os.NewFile(uintptr(fd), name), nil
	}
	return "", nil, fmt.Errorf("no unused temporary name")
}

// writeAndSync writes data, gives a replacement the replaced file's mode
// (fchmod is not subject to the umask) and makes the contents durable before
// the rename publishes them.
func writeAndSync(f *os.File, data []byte, keepPerm fs.FileMode, replacing bool) error {
	_, err := f.Write(data)
	if err == nil && replacing {
		err = f.Chmod(keepPerm)
	}
	if err == nil {
		err = f.Sync()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	return err
}

func (r *Resolver) pathError(op, canonical string, err error) error {
	return &fs.PathError{Op: op, Path: canonical, Err: err}
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

func ignoringEINTRValue[T any](f func() (T, error)) (T, error) {
	for {
		v, err := f()
		if !errors.Is(err, unix.EINTR) {
			return v, err
		}
	}
}

// Rename renames the file at the canonical path to another name in the
// same directory, through no link (an existing file of that name is replaced).
func (r *Resolver) Rename(canonical, to string) error {
	if filepath.Dir(filepath.FromSlash(canonical)) != filepath.Dir(filepath.FromSlash(to)) {
		return r.pathError("rename", canonical, errors.New("rename across directories"))
	}
	dirfd, base, err := r.openParent(canonical, false)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	newBase := filepath.Base(filepath.FromSlash(to))
	if err := unix.Renameat(dirfd, base, dirfd, newBase); err != nil {
		return r.pathError("rename", canonical, err)
	}
	return nil
}
