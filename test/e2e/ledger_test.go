package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

const ledgerFile = ".orchestration/agent_trace.jsonl"

// ledgerLines reads the workspace's trace ledger, one entry per line (each
// with its newline).
func ledgerLines(t *testing.T, ws string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(ws, ledgerFile))
	must(t, err)
	lines := bytes.SplitAfter(raw, []byte("\n"))
	return lines[:len(lines)-1] // after the last newline: nothing
}

// traceVerify runs the real `mcpc trace verify` and decodes its report.
func traceVerify(t *testing.T, ws string, extra ...string) (ok bool, problem map[string]any, out string) {
	t.Helper()
	out, err := runCLI(ws, append([]string{"trace", "verify"}, extra...)...)
	var rep struct {
		OK      bool           `json:"ok"`
		Problem map[string]any `json:"problem"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if derr := dec.Decode(&rep); derr != nil {
		t.Fatalf("trace verify printed no JSON report: %v\n%s", derr, out)
	}
	if rep.OK != (err == nil) {
		t.Fatalf("trace verify says ok=%v but exited with %v\n%s", rep.OK, err, out)
	}
	return rep.OK, rep.Problem, out
}

// TestLedgerTampering: three successful patches leave three chained
// records (a refused one none); `mcpc trace verify` accepts the ledger and
// names the first bad line of every kind of tampering.
func TestLedgerTampering(t *testing.T) {
	ws := newWorkspace(t)
	a := acceptedWork(t, ws)
	// A refused patch (the file was never read) records nothing.
	mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{alertCodemod}}), "STALE_CONTEXT")
	if _, err := os.Stat(filepath.Join(ws, ledgerFile)); !os.IsNotExist(err) {
		t.Fatalf("a refused patch wrote the ledger: %v", err)
	}
	for _, edit := range []map[string]any{
		{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`},
		{"op": "replace_text", "find": ` dismissible`, "replace": ` dismissable`},
		alertCodemod,
	} {
		mustAllow(t, patchAlert(a, edit))
		validateAlert(a) // the first two fail, which allows the next correction
	}
	lines := ledgerLines(t, ws)
	if len(lines) != 3 {
		t.Fatalf("want 3 ledger records, got %d", len(lines))
	}
	for i, line := range lines {
		var rec map[string]any
		must(t, json.Unmarshal(line, &rec))
		wantClass := "INTENT_EVOLUTION"
		if i == 2 {
			wantClass = "AST_REFACTOR"
		}
		if rec["seq"] != float64(i+1) || rec["intent_id"] != a.work || rec["mutation_class"] != wantClass {
			t.Errorf("record %d: seq %v intent %v class %v (want %s)", i+1, rec["seq"], rec["intent_id"], rec["mutation_class"], wantClass)
		}
	}
	if ok, p, out := traceVerify(t, ws); !ok {
		t.Fatalf("an untouched ledger does not verify: %v\n%s", p, out)
	}
	original := bytes.Join(lines, nil)
	tests := []struct {
		note   string
		ledger []byte
		line   float64
		kind   string
	}{
		{"rewritten record", bytes.Join([][]byte{lines[0], bytes.Replace(lines[1], []byte(demo.Target), []byte("src/other.html"), 1), lines[2]}, nil), 2, "rewritten"},
		{"removed record", bytes.Join([][]byte{lines[0], lines[2]}, nil), 2, "broken-chain"},
		{"inserted record", bytes.Join([][]byte{lines[0], lines[0], lines[1], lines[2]}, nil), 2, "broken-chain"},
		{"reordered records", bytes.Join([][]byte{lines[1], lines[0], lines[2]}, nil), 1, "broken-chain"},
		{"removed last record", bytes.Join(lines[:2], nil), 3, "truncated"},
	}
	for _, tc := range tests {
		t.Run(tc.note, func(t *testing.T) {
			must(t, os.WriteFile(filepath.Join(ws, ledgerFile), tc.ledger, 0o644))
			defer func() { must(t, os.WriteFile(filepath.Join(ws, ledgerFile), original, 0o644)) }()
			ok, p, out := traceVerify(t, ws)
			if ok {
				t.Fatalf("a tampered ledger verified:\n%s", out)
			}
			if p["line"] != tc.line || p["kind"] != tc.kind {
				t.Fatalf("want line %v %s, got %v", tc.line, tc.kind, p)
			}
			if !strings.Contains(out, "line "+jsonNum(tc.line)+":") {
				t.Errorf("stderr does not name the line:\n%s", out)
			}
		})
	}
	if ok, p, out := traceVerify(t, ws); !ok {
		t.Fatalf("the restored ledger does not verify: %v\n%s", p, out)
	}
}

func jsonNum(f float64) string {
	raw, _ := json.Marshal(f)
	return string(raw)
}

// TestIntentScope: with .orchestration/active_intents.yaml present a write
// outside every active intent's owned_scope is SCOPE_VIOLATION and leaves
// the file alone; inside it the ledger records the intent and the class.
func TestIntentScope(t *testing.T) {
	ws := newWorkspace(t)
	sidecar := filepath.Join(ws, ".orchestration", "active_intents.yaml")
	must(t, os.MkdirAll(filepath.Dir(sidecar), 0o755))
	must(t, os.WriteFile(sidecar, []byte(`active_intents:
  - id: INT-001
    name: orders grid
    status: IN_PROGRESS
    owned_scope: ["src/app/orders/**"]
  - id: INT-000
    name: old work
    status: COMPLETED
    owned_scope: ["src/**"]
`), 0o644))
	a := acceptedWork(t, ws)
	before, err := os.ReadFile(filepath.Join(ws, demo.Target))
	must(t, err)
	mustDeny(t, patchAlert(a, alertCodemod), "SCOPE_VIOLATION")
	if after, _ := os.ReadFile(filepath.Join(ws, demo.Target)); !bytes.Equal(before, after) {
		t.Fatal("a refused write changed the file")
	}
	must(t, os.WriteFile(sidecar, []byte("active_intents: [unclosed\n"), 0o644))
	mustDeny(t, patchAlert(a, alertCodemod), "INTENT_REQUIRED")
	must(t, os.WriteFile(sidecar, []byte(`active_intents:
  - id: INT-002
    name: dashboard alert
    status: IN_PROGRESS
    owned_scope: ["src/app/dashboard/*.html"]
`), 0o644))
	mustAllow(t, patchAlert(a, alertCodemod))
	lines := ledgerLines(t, ws)
	var rec map[string]any
	must(t, json.Unmarshal(lines[len(lines)-1], &rec))
	if len(lines) != 1 || rec["intent_id"] != "INT-002" || rec["mutation_class"] != "AST_REFACTOR" || rec["work_id"] != a.work {
		t.Fatalf("ledger: %d records, last %v", len(lines), rec)
	}
}
