package controller

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/sandbox"
)

// TestRunValidationOutcome: what a validation's result says, run as the
// controller runs it (under the group supervisor on Linux): the command's
// own exit code and output, and a command that cannot start told apart from
// one that fails.
func TestRunValidationOutcome(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "check.sh"), []byte("#!/bin/sh\necho \"checked $1\"\nexit 3\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := testCommandController(t, root, 64)
	for _, tc := range []struct {
		note     string
		argv     []string
		passed   bool
		exitCode int
		output   string // contained in the output
		notStart bool   // the command did not start (a fact, not a result)
	}{
		{"passes", []string{"true"}, true, 0, "", false},
		{"fails with its own exit code and output", []string{"./check.sh", "a b"}, false, 3, "checked a b", false},
		{"arguments reach the command unsplit", []string{"sh", "-c", `printf '%s|' "$@"`, "x", "one two", "*"}, true, 0, "one two|*|", false},
		{"a program not on PATH did not start", []string{"mcpc-no-such-program"}, false, -1, "", true},
		{"a missing relative program did not start", []string{"./missing.sh"}, false, -1, "", true},
		{"the output's tail comes back", []string{"sh", "-c", "seq 1 1000"}, true, 0, "\n999\n1000\n", false},
		{"output is redacted", []string{"sh", "-c", "echo token=SECRET-VALUE"}, true, 0, "token=[REDACTED]", false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			res, startErr := c.runValidation(context.Background(), tc.argv, "", 10*time.Second)
			if res["passed"] != tc.passed || res["exitCode"] != tc.exitCode || !strings.Contains(res["output"].(string), tc.output) ||
				(startErr != nil) != tc.notStart {
				t.Errorf("result %v (start error %v), want passed %v, exit code %d, output with %q, not started %v", res, startErr, tc.passed, tc.exitCode, tc.output, tc.notStart)
			}
			if _, ok := res["error"]; ok {
				t.Errorf("the result carries free text: %v", res)
			}
		})
	}
}

// redactSecretValue stands for the secret detector.
type redactSecretValue struct{}

func (redactSecretValue) Redact(b []byte) []byte {
	return []byte(strings.ReplaceAll(string(b), "SECRET-VALUE", "[REDACTED]"))
}

// testCommandController is a Controller that runs commands only: in a
// sandbox of root where one can be made, else unsandboxed.
func testCommandController(t *testing.T, root string, outputMaxBytes int) *Controller {
	t.Helper()
	cfg := &config.Config{}
	cfg.Sandbox.OutputMaxBytes = outputMaxBytes
	sb := sandbox.New(sandbox.Options{Root: root, AllowUnsandboxed: true})
	return &Controller{root: root, cfg: cfg, sandbox: sb, redactor: redactSecretValue{}}
}

// TestRunValidationBoundsOutput: a validation printing far more than the
// limit keeps the limit's worth of tail and reports the full size.
func TestRunValidationBoundsOutput(t *testing.T) {
	c := testCommandController(t, t.TempDir(), 1024)
	res, _ := c.runValidation(context.Background(), []string{"sh", "-c", "head -c 5000000 /dev/zero | tr '\\0' x; echo; echo last line"}, "", 30*time.Second)
	out, _ := res["output"].(string)
	if res["passed"] != true || res["truncated"] != true || res["outputBytes"] != int64(5000000+1+10) || len(out) != 1024 || !strings.HasSuffix(out, "x\nlast line\n") {
		t.Errorf("result passed %v truncated %v outputBytes %v, output of %d bytes ending %q", res["passed"], res["truncated"], res["outputBytes"], len(out), out[max(0, len(out)-20):])
	}
}
