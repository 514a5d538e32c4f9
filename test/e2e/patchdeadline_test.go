package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// TestPatchDeadlineOverStdio: an edit still running when the patch's
// deadline ends (MCPC_FAILPOINT=patch-edits holds the edits until their
// context ends, as a codemod over a file built to be slow would) is refused
// with EXEC_PATCH_DEADLINE at the edit's path: the file keeps its bytes, no
// trace ledger record is written, and the same process answers the next
// turn (it did not hold the store while it waited).
func TestPatchDeadlineOverStdio(t *testing.T) {
	ws := newWorkspace(t)
	a := startFailpointServer(t, ws, "patch-edits")
	init := a.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	target := filepath.Join(ws, filepath.FromSlash(demo.Target))
	before, err := os.ReadFile(target)
	must(t, err)

	start := time.Now()
	r := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}})
	mustDeny(t, r, "EXEC_PATCH_DEADLINE")
	if took := time.Since(start); took < 2*time.Second {
		t.Errorf("the denial came after %s, before the 2 s patch deadline could end", took)
	}
	if !hasDenialAt(r, "EXEC_PATCH_DEADLINE", "args.edits[0]") {
		t.Errorf("the deadline denial does not name args.edits[0]: %+v", r.Denials)
	}
	if r.Result["applied"] == true {
		t.Errorf("a patch out of time was applied: %v", r.Result)
	}
	after, err := os.ReadFile(target)
	must(t, err)
	if string(after) != string(before) {
		t.Errorf("the file changed after a refused patch:\n%s", after)
	}
	if _, err := os.Stat(filepath.Join(ws, ".orchestration", "agent_trace.jsonl")); !os.IsNotExist(err) {
		t.Errorf("a refused patch left a trace ledger record (stat: %v)", err)
	}
	// The process and its store are free: the next turn is answered.
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 3}))
}

// hasDenialAt says whether r holds a denial with code at path.
func hasDenialAt(r *protocol.TurnResponse, code, path string) bool {
	for _, d := range r.Denials {
		if d.Code == code && d.Path == path {
			return true
		}
	}
	return false
}
