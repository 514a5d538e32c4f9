//go:build unix

package pathscope

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"golang.org/x/sys/unix"
)

// Stamp identifies one content of a file cheaply: the file (device and
// inode), its size and its modification and change times. Any write to the
// file moves its times (ctime cannot be set back), and an atomic
// replacement gives it a new inode, so a stamp that is equal at two moments
// says the content read at the first is the content at the second, without
// reading it again. The zero Stamp matches nothing: ReadFileStamped gives it
// for content that changed while it was read.
type Stamp struct {
	Dev, Ino, Size   uint64
	MtimeNs, CtimeNs int64
}

// Known reports whether the stamp identifies a content at all.
func (s Stamp) Known() bool { return s != Stamp{} }

func stampOf(st *unix.Stat_t) Stamp {
	return Stamp{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: uint64(st.Size),
		MtimeNs: unix.TimespecToNsec(st.Mtim), CtimeNs: unix.TimespecToNsec(st.Ctim)}
}

// ReadFileStamped is ReadFile with the stamp of the content read: the
// file's stamp when it was opened and after the read, when they agree (zero
// when the file changed while it was read, so no later check can match it).
func (r *Resolver) ReadFileStamped(canonical string, maxBytes int64) ([]byte, Stamp, error) {
	if maxBytes < 0 {
		return nil, Stamp{}, fmt.Errorf("pathscope: negative read limit %d", maxBytes)
	}
	fd, opened, err := r.openRegular(canonical)
	if err != nil {
		return nil, Stamp{}, err
	}
	defer unix.Close(fd)
	if opened.Size > maxBytes {
		return nil, Stamp{}, r.pathError("read", canonical, ErrTooLarge)
	}
	before := stampOf(opened)
	data, err := readUpTo(fd, opened.Size, maxBytes)
	if err != nil {
		return nil, Stamp{}, r.pathError("read", canonical, err)
	}
	if int64(len(data)) > maxBytes {
		return nil, Stamp{}, r.pathError("read", canonical, ErrTooLarge)
	}
	var after unix.Stat_t
	if err := unix.Fstat(fd, &after); err != nil {
		return nil, Stamp{}, r.pathError("read", canonical, err)
	}
	if before == stampOf(&after) && before.Size == uint64(len(data)) {
		return data, before, nil
	}
	return data, Stamp{}, nil
}

// readUpTo reads fd to its end, or to one byte past limit (the file may
// have grown since its fstat), into a buffer sized for the size the fstat
// gave: an unchanged file is read with no copying and no growing.
func readUpTo(fd int, size, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(size, limit)+1)
	for int64(len(buf)) <= limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(int64(cap(buf)), limit+1-int64(len(buf)))))
		}
		room := buf[len(buf):min(int64(cap(buf)), limit+1)]
		n, err := fdReader(fd).Read(room)
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// StatStamp is the stamp of the regular, singly-linked file at the
// canonical path, reached without following a link: a few system calls,
// whatever the file's size.
func (r *Resolver) StatStamp(canonical string) (Stamp, error) {
	dirfd, base, err := r.openParent(canonical, false)
	if err != nil {
		return Stamp{}, err
	}
	defer unix.Close(dirfd)
	st, exists, err := existingTarget(dirfd, base)
	switch {
	case err != nil:
		return Stamp{}, r.pathError("stat", canonical, err)
	case !exists:
		return Stamp{}, r.pathError("stat", canonical, unix.ENOENT)
	}
	return stampOf(&st), nil
}

// Staged is a file's new content written and synced beside it, in a
// temporary file of the same directory, before it is published: writing
// and syncing cost time in proportion to the content, publishing (Replace,
// Create) costs a rename or a link. The directory stays open, so the
// content is published where it was written even if a parent is swapped
// meanwhile. Exactly one of Replace, Create or Discard ends it.
type Staged struct {
	r         *Resolver
	canonical string
	dirfd     int
	base, tmp string
}

// ErrStale is Replace's refusal when the target is no longer the content
// it was expected to hold.
var ErrStale = errors.New("the file changed since it was read")

// Stage writes data beside the file at the canonical path (which may not
// exist yet). A replacement keeps the permission bits the file has now.
func (r *Resolver) Stage(canonical string, data []byte) (*Staged, error) {
	dirfd, base, err := r.openParent(canonical, false)
	if err != nil {
		return nil, err
	}
	createPerm, keepPerm := uint32(0o644), fs.FileMode(0)
	st, replacing, err := existingTarget(dirfd, base)
	if err != nil {
		unix.Close(dirfd)
		return nil, r.pathError("write", canonical, err)
	}
	if replacing {
		createPerm, keepPerm = 0o600, fs.FileMode(st.Mode&0o777)
	}
	tmp, f, err := createTemp(dirfd, createPerm)
	if err != nil {
		unix.Close(dirfd)
		return nil, r.pathError("write", canonical, err)
	}
	if err := writeAndSync(f, data, keepPerm, replacing); err != nil {
		unix.Unlinkat(dirfd, tmp, 0)
		unix.Close(dirfd)
		return nil, r.pathError("write", canonical, err)
	}
	return &Staged{r: r, canonical: canonical, dirfd: dirfd, base: base, tmp: tmp}, nil
}

// Replace publishes the staged content over the target, when the target's
// stamp is still expect (ErrStale otherwise; the staged file is discarded
// either way).
func (s *Staged) Replace(expect Stamp) error {
	defer s.Discard()
	st, exists, err := existingTarget(s.dirfd, s.base)
	switch {
	case err != nil:
		return s.r.pathError("write", s.canonical, err)
	case !exists || !expect.Known() || stampOf(&st) != expect:
		return s.r.pathError("write", s.canonical, ErrStale)
	}
	if err := ignoringEINTR(func() error { return unix.Renameat(s.dirfd, s.tmp, s.dirfd, s.base) }); err != nil {
		return s.r.pathError("write", s.canonical, err)
	}
	s.tmp = ""
	return s.syncDir()
}

// Create publishes the staged content as a new file, failing with
// fs.ErrExist when anything is at the target (see CreateFileAtomic).
func (s *Staged) Create() error {
	defer s.Discard()
	if err := ignoringEINTR(func() error { return unix.Linkat(s.dirfd, s.tmp, s.dirfd, s.base, 0) }); err != nil {
		return s.r.pathError("create", s.canonical, err)
	}
	return s.syncDir()
}

func (s *Staged) syncDir() error {
	if err := unix.Fsync(s.dirfd); err != nil && !errors.Is(err, unix.EINVAL) {
		return s.r.pathError("write", s.canonical, err)
	}
	return nil
}

// Discard drops what is staged and not published; it may be called again.
func (s *Staged) Discard() {
	if s == nil || s.dirfd < 0 {
		return
	}
	if s.tmp != "" {
		unix.Unlinkat(s.dirfd, s.tmp, 0)
		s.tmp = ""
	}
	unix.Close(s.dirfd)
	s.dirfd = -1
}
