package e2e

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func sha256Of(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// rawStdio starts serve on ws and returns a writer of raw JSON-RPC lines
// (a newline is added) and a scanner of the lines the server answers with.
func rawStdio(t *testing.T, ws string, args ...string) (send func(line string), lines *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--workspace", ws}, args...)...)
	stdin, err := cmd.StdinPipe()
	must(t, err)
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	lines = bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	return func(line string) {
		t.Helper()
		_, err := stdin.Write([]byte(line + "\n"))
		must(t, err)
	}, lines
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

// gitRepo makes ws a git repository with everything committed and returns
// a runner of git in it (its trimmed output; a failure fails the test).
func gitRepo(t *testing.T, ws string) func(args ...string) string {
	t.Helper()
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", ws, "-c", "user.name=t", "-c", "user.email=t@localhost"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	return git
}

// roomyBudget gives ws budgets no test of another feature reaches, for
// tests that run hundreds of turns as one agent: every turn is charged its
// request and its answer (ARCHITECTURE §5), and the defaults block an agent
// after about sixty read turns. Layered in base.json, under any
// env.local.json the test writes.
func roomyBudget(t *testing.T, ws string) {
	t.Helper()
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "base.json"),
		[]byte(`{"budget": {"maxTokens": 100000000, "workMaxTokens": 1000000000, "sessionMaxTokens": 1000000000}}`), 0o644))
}
