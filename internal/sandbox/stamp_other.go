//go:build !linux

package sandbox

import "io/fs"

// stampOf is the file's size and modification time: bwrap, and so a
// sandbox, is Linux's only.
func stampOf(info fs.FileInfo) stamp {
	return stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}
}
