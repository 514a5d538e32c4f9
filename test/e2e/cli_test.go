package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestDemo is the README's first command: the scripted session must reach
// COMPLETED through the real stdio transport.
func TestDemo(t *testing.T) {
	out, err := exec.Command(binary, "demo").CombinedOutput()
	if err != nil {
		t.Fatalf("mcpc demo: %v\n%s", err, out)
	}
	for _, want := range []string{"VERB_NOT_AVAILABLE", "PACK_SCOPE_VIOLATION", "PLAN_EVIDENCE_INSUFFICIENT", "WORK_INCOMPLETE", "COMPLETED in"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}

func TestIndexCommand(t *testing.T) {
	ws := newWorkspace(t)
	out, err := runCLI(ws, "index")
	if err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	var sum struct {
		Files, Symbols, Edges, Usages, Reparsed int
	}
	must(t, json.Unmarshal([]byte(out), &sum))
	if sum.Files < 8 || sum.Symbols == 0 || sum.Edges == 0 || sum.Usages < 2 {
		t.Errorf("index summary %+v", sum)
	}
	again, _ := runCLI(ws, "index")
	var second struct{ Reparsed int }
	must(t, json.Unmarshal([]byte(again), &second))
	if second.Reparsed != 0 {
		t.Errorf("an unchanged tree re-parsed %d files", second.Reparsed)
	}
}

func TestPolicyCommands(t *testing.T) {
	ws := newWorkspace(t)
	policies := policiesDir()
	out, err := runCLI(ws, "policy", "check", "--dir", policies)
	if err != nil || !strings.Contains(out, `"ok": true`) {
		t.Fatalf("policy check: %v\n%s", err, out)
	}
	bundle := filepath.Join(t.TempDir(), "mcpc.tar.gz")
	out, err = runCLI(ws, "policy", "build", "--dir", policies, "--output", bundle)
	if err != nil {
		t.Fatalf("policy build: %v\n%s", err, out)
	}
	// The built bundle decides a whole turn the same way the embedded one does.
	a := startServer(t, ws, "--bundle", bundle)
	init := a.initialize(demo.Prompt, "adp-alert")
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": "../x"}), "PACK_SCOPE_VIOLATION")
	if init.State != "PLANNING" {
		t.Errorf("state %s", init.State)
	}
	// A broken policy directory fails the check with a non-zero exit.
	bad := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(bad, "rego"), 0o755))
	must(t, os.WriteFile(filepath.Join(bad, "rego", "x.rego"), []byte("package mcpc.main\nimport rego.v1\ndecision := x if { y }\n"), 0o644))
	if out, err := runCLI(ws, "policy", "check", "--dir", bad); err == nil {
		t.Errorf("a broken policy passed the check:\n%s", out)
	}
}

func TestExplainDenyFormats(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": "/etc/passwd"}), "PACK_SCOPE_VIOLATION")
	text, err := runCLI(ws, "explain-deny", "--work", a.work)
	if err != nil || !strings.Contains(text, "PACK_SCOPE_VIOLATION") || !strings.Contains(text, "fix:") || !strings.Contains(text, `"/etc/passwd"`) {
		t.Errorf("text: %v\n%s", err, text)
	}
	md, err := runCLI(ws, "explain-deny", "--work", a.work, "--decision", "2", "--format", "markdown")
	if err != nil || !strings.HasPrefix(md, "## Decision 2") || !strings.Contains(md, "`PACK_SCOPE_VIOLATION`") {
		t.Errorf("markdown: %v\n%s", err, md)
	}
	js, err := runCLI(ws, "explain-deny", "--work", a.work, "--format", "json")
	var e struct {
		Allow   bool
		Denials []struct{ Code, Rule, Title, Remediation string }
		Replay  string
	}
	if err != nil || json.Unmarshal([]byte(js), &e) != nil || e.Allow || len(e.Denials) == 0 || e.Denials[0].Title == "" {
		t.Errorf("json: %v\n%s", err, js)
	}
	// Replaying a saved input offline.
	var recs []string
	for i := 0; i < 100 && len(recs) == 0; i++ { // files follow the store's records
		recs, _ = filepath.Glob(filepath.Join(ws, ".ai", "tmp", "work", a.work, "decisions", "*.json"))
		time.Sleep(20 * time.Millisecond)
	}
	if len(recs) == 0 {
		t.Fatalf("no decision record files")
	}
	out, err := runCLI(ws, "explain-deny", "--input", recs[len(recs)-1])
	if err != nil || !strings.Contains(out, "same decision") {
		t.Errorf("--input replay: %v\n%s", err, out)
	}
	// A plan denial shows the offending part of the plan.
	plan := demo.Plan(envelopeOf(init), true)
	plan["nodes"].([]any)[0].(map[string]any)["targetFile"] = "src/app/not-in-pack.ts"
	mustDeny(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}), "PLAN_SCOPE_VIOLATION")
	js, err = runCLI(ws, "explain-deny", "--work", a.work, "--format", "json")
	if err != nil || !strings.Contains(js, `"value": "src/app/not-in-pack.ts"`) {
		t.Errorf("plan denial explanation lacks the offending value: %v\n%s", err, js)
	}
	if _, err := runCLI(ws, "explain-deny", "--work", "../../etc"); err == nil {
		t.Errorf("explain-deny accepted a traversal work id")
	}
	if _, err := runCLI(ws, "explain-deny"); err == nil {
		t.Errorf("explain-deny without --work or --input succeeded")
	}
}
