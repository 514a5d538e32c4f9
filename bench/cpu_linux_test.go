//go:build linux

package bench

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// childCPU is the user+system CPU time of the process pid (all its
// threads), from /proc/pid/stat in clock ticks (100 per second here), or
// false when it cannot be read. Over a benchmark's thousands of turns the
// tick's 10 ms is well under 1% of the total, and unlike wall time it does
// not grow with what else the machine runs.
func childCPU(pid int) (time.Duration, bool) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The command name may hold spaces and parentheses: fields start after
	// the last ')'; utime and stime are the 14th and 15th fields, the 12th
	// and 13th after it.
	end := bytes.LastIndexByte(raw, ')')
	if end < 0 {
		return 0, false
	}
	fields := bytes.Fields(raw[end+1:])
	if len(fields) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(string(fields[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(fields[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	const tick = 10 * time.Millisecond // USER_HZ is 100 on every Linux ABI
	return time.Duration(utime+stime) * tick, true
}
