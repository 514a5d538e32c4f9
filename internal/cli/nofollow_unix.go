//go:build unix

package cli

import "syscall"

// noFollow keeps verify from reading a ledger that is a symlink elsewhere.
const noFollow = syscall.O_NOFOLLOW
