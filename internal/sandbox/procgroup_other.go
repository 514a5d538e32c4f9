//go:build !unix

package sandbox

import "os/exec"

// OwnProcessGroup: process groups are a Unix facility; elsewhere the
// timeout kills the direct child only.
func OwnProcessGroup(*exec.Cmd) {}
