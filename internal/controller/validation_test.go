package controller

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	c := &Controller{root: root}
	for _, tc := range []struct {
		note     string
		argv     []string
		passed   bool
		exitCode int
		output   string // contained in the output
		error    string // prefix of the error, "" for none
	}{
		{"passes", []string{"true"}, true, 0, "", ""},
		{"fails with its own exit code and output", []string{"./check.sh", "a b"}, false, 3, "checked a b", ""},
		{"arguments reach the command unsplit", []string{"sh", "-c", `printf '%s|' "$@"`, "x", "one two", "*"}, true, 0, "one two|*|", ""},
		{"a program not on PATH did not start", []string{"mcpc-no-such-program"}, false, -1, "", "the command did not start"},
		{"a missing relative program did not start", []string{"./missing.sh"}, false, -1, "", "the command did not start"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			res := c.runValidation(context.Background(), tc.argv, "", 10*time.Second)
			errText, _ := res["error"].(string)
			if res["passed"] != tc.passed || res["exitCode"] != tc.exitCode || !strings.Contains(res["output"].(string), tc.output) ||
				(tc.error == "") != (errText == "") || !strings.HasPrefix(errText, tc.error) {
				t.Errorf("result %v, want passed %v, exit code %d, output with %q, error %q", res, tc.passed, tc.exitCode, tc.output, tc.error)
			}
		})
	}
}
