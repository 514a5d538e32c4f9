package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// localRule denies reading any file a read turn names (a repository's own
// rule, for the test: every read_file_lines turn).
const localRule = `# METADATA
# title: No reads of the dashboard
# description: A repository-local rule that keeps this team's agents out of files it names.
# custom:
#   code: PACK_SCOPE_VIOLATION
#   remediation: Ask a person for what you need from that file.
#   severity: error
package mcpc.local.rules.scope["no-dashboard-reads"]

import data.mcpc.result

report contains violation if {
	contains(input.args.targetFile, "dashboard")
	violation := result.fail(rego.metadata.chain(), {"message": "this repository keeps the dashboard out of agents' reads", "path": "args.targetFile"})
}
`

func TestLocalPolicies(t *testing.T) {
	ctx := context.Background()
	write := func(dir, name, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		Allow   bool `json:"allow"`
		Denials []struct {
			Code, Rule string
		} `json:"denials"`
	}
	in := readInput(t)
	in["args"] = map[string]any{"targetFile": "src/app/dashboard/dashboard.component.html"}

	t.Run("a local rule adds a denial", func(t *testing.T) {
		dir := t.TempDir()
		write(dir, "scope/no_dashboard.rego", localRule)
		write(dir, "scope/no_dashboard_test.rego", "package broken {") // tests are not loaded
		e, err := New(ctx, Options{LocalDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		base, _ := New(ctx, Options{})
		if e.Version() == base.Version() {
			t.Errorf("local rules do not change the policy version")
		}
		var out result
		if _, _, err := e.Evaluate(ctx, in, &out); err != nil {
			t.Fatal(err)
		}
		if out.Allow || len(out.Denials) != 1 || out.Denials[0].Rule != `mcpc.local.rules.scope["no-dashboard-reads"]` {
			t.Fatalf("got %+v", out)
		}
	})
	for _, tc := range []struct{ note, body, says string }{
		{"a local module may not redefine the defaults", "package mcpc.main\n\ndecision := {\"allow\": true}\n", "outside mcpc.local"},
		{"a local module may not add to mcpc.rules", strings.Replace(localRule, "package mcpc.local.rules.scope", "package mcpc.rules.scope", 1), "outside mcpc.local"},
		{"a local module that does not parse", "package mcpc.local.rules.scope.x\nreport contains", "rego_parse_error"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			dir := t.TempDir()
			write(dir, "x.rego", tc.body)
			_, err := New(ctx, Options{LocalDir: dir})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err %v, want it to say %q", err, tc.says)
			}
		})
	}
	t.Run("a local module as a link", func(t *testing.T) {
		dir := t.TempDir()
		write(t.TempDir(), "x.rego", localRule)
		if err := os.Symlink(filepath.Join(t.TempDir(), "x.rego"), filepath.Join(dir, "x.rego")); err != nil {
			t.Fatal(err)
		}
		if _, err := New(ctx, Options{LocalDir: dir}); err == nil {
			t.Fatal("a linked module loaded")
		}
	})
}
