package indexer

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// readRegular reads a file the walk saw as regular, refusing what it may have
// become since (a link, a FIFO, a device): opened without following links and
// without blocking, checked with fstat before any read, and bounded, so a
// swapped-in /dev/zero or FIFO can neither hang nor exhaust the indexer.
func readRegular(abs string, maxBytes int64) ([]byte, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is no longer a regular file", abs)
	}
	return io.ReadAll(io.LimitReader(f, maxBytes+1))
}
