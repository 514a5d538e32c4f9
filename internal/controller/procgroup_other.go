//go:build !unix

package controller

import "os/exec"

// ownProcessGroup: process groups are a Unix facility; elsewhere the
// timeout kills the direct child only.
func ownProcessGroup(*exec.Cmd) {}
