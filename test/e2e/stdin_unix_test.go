//go:build unix

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestPipedStdinIsLeftBlocking: serve reads a piped stdin through Go's
// poller (non-blocking), answers what it was sent, and puts the pipe's
// flag back when it ends, for whoever shares that pipe.
func TestPipedStdinIsLeftBlocking(t *testing.T) {
	r, w, err := os.Pipe()
	must(t, err)
	defer r.Close()
	cmd := exec.Command(binary, "serve", "--workspace", newWorkspace(t), "--no-warm")
	cmd.Stdin = r // the child's fd 0 shares r's open file description
	var out bytes.Buffer
	cmd.Stdout = &out
	must(t, cmd.Start())
	_, err = w.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	must(t, err)
	must(t, w.Close())
	must(t, cmd.Wait())
	if !strings.Contains(out.String(), `"id":2,"result":{}`) {
		t.Errorf("the ping was not answered: %q", out.String())
	}
	// Through SyscallConn: r.Fd() would itself switch the pipe to blocking.
	raw, err := r.SyscallConn()
	must(t, err)
	var flags int
	must(t, raw.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }))
	must(t, err)
	if flags&unix.O_NONBLOCK != 0 {
		t.Errorf("stdin was left non-blocking after serve ended")
	}
}
