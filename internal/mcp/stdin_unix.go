//go:build unix

package mcp

import (
	"io"
	"os"
	"runtime"
	"syscall"
)

// pollableStdin returns stdin as a file Go's network poller waits on, when
// stdin is a pipe or a socket (what MCP clients give a server). A read then
// parks the goroutine instead of a thread in a blocking read, and the
// thread that sees the request arrive goes on to handle it: one thread
// wake-up fewer per request (about 0.2 ms of a turn that follows a pause,
// here). A terminal or a file is left as it is (a
// terminal's non-blocking flag would be shared with the shell). restore
// puts the flag back for whoever reads the pipe after mcpc.
func pollableStdin() (stdin io.Reader, restore func()) {
	var st syscall.Stat_t
	if err := syscall.Fstat(0, &st); err != nil {
		return os.Stdin, func() {}
	}
	if kind := st.Mode & syscall.S_IFMT; kind != syscall.S_IFIFO && kind != syscall.S_IFSOCK {
		return os.Stdin, func() {}
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin, func() {}
	}
	f := os.NewFile(0, "/dev/stdin")
	return f, func() {
		_ = syscall.SetNonblock(0, false)
		runtime.KeepAlive(f) // an unreachable f would close fd 0 when collected
	}
}
