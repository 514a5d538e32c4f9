//go:build unix

package pathscope

import (
	"errors"

	"golang.org/x/sys/unix"
)

// CreateFileAtomic creates the file at the canonical path with data, or
// fails with fs.ErrExist when anything is there: a reader sees no file or
// the whole contents, never a part, and a file that appeared since the
// caller looked is never replaced. The contents are written and synced to
// a temporary file that is then hard-linked into place (linkat fails on an
// existing name, symlinks included, and follows none) and unlinked.
// Missing parent directories are created when mkdirParents is set.
func (r *Resolver) CreateFileAtomic(canonical string, data []byte, mkdirParents bool) (err error) {
	dirfd, base, err := r.openParent(canonical, mkdirParents)
	if err != nil {
		return err
	}
	defer unix.Close(dirfd)
	tmp, f, err := createTemp(dirfd, 0o644)
	if err != nil {
		return r.pathError("create", canonical, err)
	}
	defer unix.Unlinkat(dirfd, tmp, 0)
	if err := writeAndSync(f, data, 0, false); err != nil {
		return r.pathError("create", canonical, err)
	}
	// EEXIST matches fs.ErrExist.
	if err := ignoringEINTR(func() error { return unix.Linkat(dirfd, tmp, dirfd, base, 0) }); err != nil {
		return r.pathError("create", canonical, err)
	}
	if err := unix.Fsync(dirfd); err != nil && !errors.Is(err, unix.EINVAL) {
		return r.pathError("create", canonical, err)
	}
	return nil
}
