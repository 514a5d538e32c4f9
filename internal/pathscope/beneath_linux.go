//go:build linux

package pathscope

import (
	"errors"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// On Linux the kernel can do openDirs' walk in one call: openat2 with
// RESOLVE_NO_SYMLINKS refuses a symbolic link at any component of the path,
// the root's own path included (New resolved it, so it holds none), and a
// canonical path holds no "..": what it opens is the directory the names
// lead to below the root, as the walk's, in one system call instead of two
// per component. It is at least as strict as the walk, which follows links
// above the root. The walk stays for every other case: a kernel or a
// seccomp filter that refuses openat2, and any error at all, which the walk
// then meets itself and reports exactly (the component that is a link, one
// to create).

// openat2 is unix.Openat2, a variable so tests can play a kernel without it.
var openat2 = unix.Openat2

// openat2Refused is set once the kernel has refused openat2 itself, so that
// the process stops asking.
var openat2Refused atomic.Bool

// openDirsAtOnce opens the directory dirs name below the root with one
// openat2; ok is false when it could not, and the caller walks.
func (r *Resolver) openDirsAtOnce(dirs []string) (fd int, ok bool) {
	if openat2Refused.Load() {
		return -1, false
	}
	path := r.root
	if len(dirs) > 0 {
		path += "/" + strings.Join(dirs, "/")
	}
	how := unix.OpenHow{Flags: dirOpenFlags, Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	fd, err := ignoringEINTRValue(func() (int, error) { return openat2(unix.AT_FDCWD, path, &how) })
	if err != nil {
		// ENOSYS: a kernel before 5.6; EPERM: a seccomp filter that does not
		// know the call; EINVAL or E2BIG: a kernel that does not know a flag
		// or the structure. None of them says anything about the path.
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.E2BIG) {
			openat2Refused.Store(true)
		}
		return -1, false
	}
	return fd, true
}
