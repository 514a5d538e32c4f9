//go:build linux

package jsrun

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// limitMemory caps the process's address space at what it has mapped now
// plus room for the script: a cap of capBytes of heap, the collector's
// headroom over it, and the runtime's own growth. An allocation past it
// fails, and the Go runtime ends the process ("out of memory"), which is
// the parent's sign that the cap was reached.
func limitMemory(capBytes uint64) {
	base := mappedBytes()
	if base == 0 || capBytes == 0 {
		return
	}
	limit := base + 3*capBytes + 256<<20
	_ = unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: limit, Max: limit})
}

// mappedBytes is the process's virtual size (/proc/self/statm, in pages).
func mappedBytes() uint64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	fields := strings.Fields(string(raw))
	if len(fields) == 0 {
		return 0
	}
	pages, err := strconv.ParseUint(fields[0], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}
