//go:build unix

package pathscope

import (
	"io"

	"golang.org/x/sys/unix"
)

// ReadTail returns at most the last n bytes of the regular, singly-linked
// file at the canonical path, reached as ReadFile reaches it: an
// append-only log's last record is found without reading the whole log.
func (r *Resolver) ReadTail(canonical string, n int64) ([]byte, error) {
	fd, st, err := r.openRegular(canonical)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	size := st.Size
	off := max(size-n, 0)
	buf := make([]byte, size-off)
	read := 0
	for read < len(buf) {
		m, err := unix.Pread(fd, buf[read:], off+int64(read))
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, r.pathError("read", canonical, err)
		}
		if m == 0 {
			break // truncated since fstat
		}
		read += m
	}
	if read < len(buf) {
		return nil, r.pathError("read", canonical, io.ErrUnexpectedEOF)
	}
	return buf, nil
}
