package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
)

func sha256Of(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// runCLI runs the binary with --workspace ws and returns stdout.
func runCLI(ws string, args ...string) (string, error) {
	cmd := exec.Command(binary, append(args, "--workspace", ws)...)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out) + string(ee.Stderr), err
	}
	return string(out), err
}
