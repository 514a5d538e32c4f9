//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// groupSupervisor stands between mcpc and a validation command as the
// leader of the command's process group. The kernel sends it SIGTERM when
// mcpc dies (Pdeathsig, kill -9 included) and it kills the whole group: the
// command and everything the command started. Pdeathsig alone reaches only
// the direct child, and a validation is usually a shell or a package
// manager whose test runner would go on. The command runs in the background
// because a trapped signal interrupts the shell's wait (POSIX), where it
// would only be handled after a foreground command ended.
const groupSupervisor = `trap 'kill -s KILL 0' TERM; "$@" & wait $!`

// dieWithParent runs cmd under groupSupervisor. A program that cannot be
// found is left as it is, so that starting it fails as before and the
// result says the command did not start, not that it failed.
func dieWithParent(cmd *exec.Cmd) {
	if cmd.Err != nil || !startable(cmd) {
		return
	}
	cmd.Args = append([]string{"sh", "-c", groupSupervisor, "mcpc-validation", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = "/bin/sh"
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
}

// startable says whether cmd's program exists where exec would look for it:
// a relative path is taken from cmd.Dir.
func startable(cmd *exec.Cmd) bool {
	path := cmd.Path
	if !filepath.IsAbs(path) {
		path = filepath.Join(cmd.Dir, path)
	}
	info, err := os.Stat(path)
	return err == nil && !info.IsDir()
}
