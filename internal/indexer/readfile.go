package indexer

import (
	"fmt"
	"io"
	"os"
	"slices"
	"syscall"
)

// readRegular reads a file the walk saw as regular, refusing what it may have
// become since (a link, a FIFO, a device): opened without following links and
// without blocking, checked with fstat before any read, and bounded, so a
// swapped-in /dev/zero or FIFO can neither hang nor exhaust the indexer.
func readRegular(abs string, maxBytes int64) ([]byte, error) {
	return readRegularInto(abs, maxBytes, nil)
}

// readRegularInto is readRegular reading into buf's storage when the file
// fits it: an indexing worker reuses one buffer for every file it reads,
// where a fresh one per file made the heap (and the kernel, which zeroes
// each new page) handle the tree's size over again.
func readRegularInto(abs string, maxBytes int64, buf []byte) ([]byte, error) {
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
	// Sized from fstat, one read takes the file and a second sees its end;
	// io.ReadAll's buffer starts at 512 bytes and doubles, a read and a
	// copy each time. One byte spare shows a file that grew past maxBytes.
	if need := min(fi.Size(), maxBytes) + 1; int64(cap(buf)) < need {
		buf = make([]byte, 0, need)
	} else {
		buf = buf[:0]
	}
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return nil, err
		case int64(len(buf)) > maxBytes:
			return buf, nil
		case len(buf) == cap(buf):
			buf = slices.Grow(buf, min(cap(buf), int(maxBytes)+1-len(buf))) // it grew since fstat
		}
	}
}

// maxSmallFile bounds the repository's own settings files the indexer reads
// (.gitignore, tsconfig.json).
const maxSmallFile = 1 << 20

// readSmallFile reads a settings file the way readRegular reads sources: a
// link, FIFO or device there (a committed link to /dev/zero, say) is
// skipped rather than followed, blocked on or read without end, and so is
// a file past maxSmallFile.
func readSmallFile(abs string) ([]byte, bool) {
	data, err := readRegular(abs, maxSmallFile)
	if err != nil || len(data) > maxSmallFile {
		return nil, false
	}
	return data, true
}
