//go:build !linux

package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// walkTree calls visit for every entry below root, descending into the
// folders visit does not skip (bwrap, and so a sandbox, is Linux's only:
// this is the portable walk, by path).
func walkTree(root string, visit func(e entry) (skip bool)) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // unreadable here is unreadable in the sandbox too
		}
		if p == root {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		if visit(entry{rel: filepath.ToSlash(rel), typ: d.Type(), path: p}) && d.IsDir() {
			return filepath.SkipDir
		}
		return nil
	})
}

// entry is one entry of the walk: its worktree path ("/" separated), its
// type and its path.
type entry struct {
	rel  string
	typ  fs.FileMode
	path string
}

// stat is the entry's size and modification time.
func (e entry) stat() (stamp, error) {
	info, err := os.Lstat(e.path)
	if err != nil {
		return stamp{}, err
	}
	if !info.Mode().IsRegular() {
		return stamp{}, errNotRegular
	}
	return stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}, nil
}

func (e entry) open() (*os.File, error) {
	return os.OpenFile(e.path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
