//go:build unix

package sandbox

import (
	"os/exec"
	"syscall"
)

// OwnProcessGroup runs cmd as the leader of a process group of its own and
// makes cancelling it (the timeout) kill the whole group: a validation is
// usually a shell or a package manager that starts the real test runner,
// and killing only the direct child would leave the runner going.
func OwnProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd)
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
