//go:build linux

package controller

import "syscall"

// dieWithParent has the kernel kill the group's leader if mcpc dies first
// (kill -9 included), so a validation does not outlive the process that
// would record it.
func dieWithParent(attr *syscall.SysProcAttr) { attr.Pdeathsig = syscall.SIGKILL }
