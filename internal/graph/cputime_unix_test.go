//go:build unix

package graph_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's user+system CPU time. The benchmarks report it
// beside wall time: on a machine shared with other builds, wall time says
// more about the neighbours than about the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
