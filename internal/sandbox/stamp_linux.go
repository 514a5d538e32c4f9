package sandbox

import (
	"io/fs"
	"syscall"
)

// stampOf identifies one content of a file without reading it: the file
// (device and inode), its size and its modification and change times. A
// write moves both times, and the change time cannot be set back (touch -r
// restores only the modification time), so content given key material
// under an old modification time and size still gets a new stamp.
func stampOf(info fs.FileInfo) stamp {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}
	}
	return stamp{dev: uint64(st.Dev), ino: st.Ino, size: st.Size,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
}
