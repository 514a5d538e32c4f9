//go:build !unix

package pathscope

import (
	"errors"
	"io/fs"
)

// The descriptor walk needs openat and O_NOFOLLOW; mcpc supports Linux and
// macOS. Elsewhere Resolve works but every I/O function refuses.

func linkCount(fs.FileInfo) uint64 { return 1 }

var errUnsupported = errors.ErrUnsupported

func (r *Resolver) ReadFile(canonical string, maxBytes int64) ([]byte, error) {
	return nil, errUnsupported
}

func (r *Resolver) HashFile(canonical string) (string, error) { return "", errUnsupported }

func (r *Resolver) WriteFileAtomic(canonical string, data []byte, mkdirParents bool) error {
	return errUnsupported
}

func (r *Resolver) WriteFile(canonical string, data []byte, mkdirParents bool) error {
	return errUnsupported
}

func (r *Resolver) AppendFile(canonical string, data []byte, mkdirParents bool) error {
	return errUnsupported
}

func (r *Resolver) Sub(rel string) (*Resolver, error) { return nil, errUnsupported }

func (r *Resolver) Lock(canonical string) (func(), error) { return nil, errUnsupported }

func (r *Resolver) ReadDirNames(canonical string) ([]string, error) { return nil, errUnsupported }

func (r *Resolver) Remove(canonical string) error { return errUnsupported }

func (r *Resolver) Rename(canonical, to string) error { return errUnsupported }
