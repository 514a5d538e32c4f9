//go:build unix && !linux

package sandbox

import "os/exec"

// dieWithParent: only Linux can tie a child's life to its parent's, so
// elsewhere a validation outlives an mcpc that is killed.
func dieWithParent(*exec.Cmd) {}
