//go:build linux

package fswatch

import (
	"errors"
	"unsafe"

	"golang.org/x/sys/unix"
)

// watchMask is every change that alters what a directory walk sees: an
// entry added, removed or renamed, a file's content or its stat
// (IN_ATTRIB: touch, chmod), and the directory itself moved or removed.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW

// Watcher watches directories of one tree, each under a key the caller
// chooses (its path relative to the tree). It is not safe for concurrent
// use: the indexer uses it under its refresh lock.
type Watcher struct {
	fd    int
	byWD  map[int32]string
	byKey map[string]int32
	dirty map[string]bool
	epoch uint64
	lost  bool
	buf   []byte
}

// New starts an inotify instance.
func New() (*Watcher, error) {
	w := &Watcher{fd: -1, buf: make([]byte, 64<<10)}
	if err := w.Reset(); err != nil {
		return nil, err
	}
	return w, nil
}

// Reset drops every watch and starts anew: a new epoch, nothing watched,
// nothing lost. The caller then walks the whole tree, adding each
// directory before reading it.
func (w *Watcher) Reset() error {
	if w.fd >= 0 {
		unix.Close(w.fd)
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		w.fd, w.lost = -1, true
		return err
	}
	w.fd, w.lost = fd, false
	w.byWD, w.byKey, w.dirty = map[int32]string{}, map[string]int32{}, map[string]bool{}
	w.epoch++
	return nil
}

// Epoch names the current set of watches; Reset starts a new one. A
// listing made under one epoch is vouched for only in that epoch.
func (w *Watcher) Epoch() uint64 { return w.epoch }

// Add watches the directory abs under key, if it is not watched already.
// It must be called before the directory is read: what changes after the
// watch is added is reported, what changed before is in what is read. It
// reports false when the directory is not watched (the watch limit,
// fs.inotify.max_user_watches, is reached; it vanished; it is the same
// directory as another key, through a bind mount); the caller then walks
// it every time.
func (w *Watcher) Add(abs, key string) bool {
	if w.fd < 0 {
		return false
	}
	if _, ok := w.byKey[key]; ok {
		return true
	}
	wd, err := unix.InotifyAddWatch(w.fd, abs, watchMask)
	if err != nil {
		return false
	}
	id := int32(wd)
	if _, taken := w.byWD[id]; taken {
		// The same inode under two keys: its events name only one.
		return false
	}
	w.byWD[id], w.byKey[key] = key, id
	return true
}

// Watched reports whether key is watched in the current epoch.
func (w *Watcher) Watched(key string) bool {
	_, ok := w.byKey[key]
	return ok
}

// Drain reads every event queued so far and returns the keys of the
// directories whose entries changed since the last Drain (or Reset). ok
// false means the watcher cannot vouch for anything: Reset it and walk
// the whole tree. The map is the caller's.
func (w *Watcher) Drain() (dirty map[string]bool, ok bool) {
	for !w.lost {
		n, err := unix.Read(w.fd, w.buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EAGAIN) {
			break
		}
		if err != nil || n <= 0 {
			w.lost = true
			break
		}
		w.parse(w.buf[:n])
	}
	if w.lost {
		return nil, false
	}
	dirty, w.dirty = w.dirty, map[string]bool{}
	return dirty, true
}

// Invalidate makes the next Drain report that nothing is vouched for: the
// caller lost what the last one returned (its walk failed).
func (w *Watcher) Invalidate() { w.lost = true }

func (w *Watcher) parse(b []byte) {
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		size := unix.SizeofInotifyEvent + int(ev.Len)
		if size > len(b) {
			w.lost = true // the kernel never splits an event
			return
		}
		b = b[size:]
		w.event(ev.Wd, ev.Mask)
	}
}

func (w *Watcher) event(wd int32, mask uint32) {
	key, known := w.byWD[wd]
	switch {
	case mask&unix.IN_Q_OVERFLOW != 0, mask&unix.IN_UNMOUNT != 0:
		w.lost = true
	case mask&unix.IN_MOVE_SELF != 0:
		// The watches below a moved directory still carry its old path:
		// nothing under it can be vouched for any more.
		w.lost = true
	case mask&unix.IN_IGNORED != 0:
		// The directory is gone (or the watch was removed): it is no
		// longer watched, and its parent saw it go.
		if known {
			delete(w.byWD, wd)
			delete(w.byKey, key)
			w.dirty[key] = true
		}
	case known:
		// An entry of the directory changed (a file written or touched,
		// an entry created, removed or renamed, the directory removed):
		// it must be read or stat'ed again. A new subdirectory is found
		// by reading this one, and watched before it is read.
		w.dirty[key] = true
	}
}

// Close ends the watcher.
func (w *Watcher) Close() error {
	if w.fd < 0 {
		return nil
	}
	err := unix.Close(w.fd)
	w.fd, w.lost = -1, true
	return err
}
