package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const localScopeRule = `# METADATA
# title: No reads of the dashboard template
# description: This repository keeps agents out of the dashboard template.
# custom:
#   code: PACK_SCOPE_VIOLATION
#   remediation: Ask a person for what you need from the dashboard template.
#   severity: error
package mcpc.local.rules.scope["no-dashboard-reads"]

import data.mcpc.result

report contains violation if {
	contains(input.args.targetFile, "dashboard.component.html")
	violation := result.fail(rego.metadata.chain(), {"message": "this repository keeps the dashboard template out of reads", "path": "args.targetFile"})
}
`

// TestLocalPolicyExtendsDefaults: a rule in .ai/policies adds a denial in
// serve, passes mcpc policy check, and an undocumented one fails the check.
func TestLocalPolicyExtendsDefaults(t *testing.T) {
	ws := newWorkspace(t)
	dir := filepath.Join(ws, ".ai", "policies")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "no_dashboard.rego"), []byte(localScopeRule), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runCLI(ws, "policy", "check"); err != nil || !strings.Contains(out, `"ok": true`) {
		t.Fatalf("policy check: %v\n%s", err, out)
	}
	a := startServer(t, ws)
	init := a.initialize("Migrate adp-alert on the dashboard", "adp-alert")
	target := ""
	for _, f := range packFiles(init) {
		if strings.HasSuffix(f, "dashboard.component.html") {
			target = f
		}
	}
	if target == "" {
		t.Fatalf("no dashboard template in the pack: %v", packFiles(init))
	}
	r := a.turn("read_file_lines", map[string]any{"targetFile": target, "startLine": 1, "endLine": 2})
	mustDeny(t, r, "PACK_SCOPE_VIOLATION")
	if r.Denials[0].Rule != `mcpc.local.rules.scope["no-dashboard-reads"]` {
		t.Errorf("denied by %s", r.Denials[0].Rule)
	}

	bare := "package mcpc.local.rules.plan[\"bare\"]\n\nreport contains {\"code\": \"X\"} if input.verb == \"x\"\n"
	if err := os.WriteFile(filepath.Join(dir, "bare.rego"), []byte(bare), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(ws, "policy", "check")
	if err == nil || !strings.Contains(out, "no_metadata") {
		t.Fatalf("an undocumented local rule passed the check: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "bare.rego"), []byte("package mcpc.rules.plan[\"lift\"]\n\nreport := set()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runCLI(ws, "policy", "check"); err == nil || !strings.Contains(out, "outside mcpc.local") {
		t.Fatalf("a local module outside mcpc.local passed: %v\n%s", err, out)
	}
}
