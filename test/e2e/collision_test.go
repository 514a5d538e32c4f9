package e2e

import (
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestCollisionAcrossProcesses: two agents, each in its own `mcpc serve`
// process with its own work on one workspace, plan the same file. The
// first to patch holds it; the other's write is EXEC_SIDE_EFFECT_COLLISION
// until the holder's node fails its validation, which releases the file.
// A hold also expires: a process whose clock (MCPC_NOW) is past the TTL
// writes through it.
func TestCollisionAcrossProcesses(t *testing.T) {
	ws := newWorkspace(t)
	a := acceptedWork(t, ws)
	b := acceptedWork(t, ws)
	if a.work == b.work {
		t.Fatal("the two agents share a work")
	}
	mustAllow(t, patchAlert(a, map[string]any{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`}))
	denied := patchAlert(b, alertCodemod)
	mustDeny(t, denied, "EXEC_SIDE_EFFECT_COLLISION")
	if d := denied.Denials[0]; d.Rule != `mcpc.rules.exec["file-collision"]` || d.Path != "args.targetFile" {
		t.Errorf("denial %+v", d)
	}

	// A third process whose clock is past the hold's TTL sees it expired.
	later := time.Now().Add(2 * time.Hour).UTC().Format(time.RFC3339)
	c, _, _ := startServerEnv(t, ws, "MCPC_NOW="+later)
	c.work, c.id = b.work, b.id
	mustAllow(t, c.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	if r := c.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": "dismissible", "replace": "dismissable"}}}); len(r.Denials) > 0 {
		t.Fatalf("an expired hold still blocks: %v", r.DenyReasons)
	}
	// b's work now holds the file (renewed on c's clock); a is refused.
	mustDeny(t, patchAlert(a, alertCodemod), "EXEC_SIDE_EFFECT_COLLISION")
	// The holder's node fails its validation: the file is released.
	if r := validateAlert(b); r.Result["status"] != "failed" {
		t.Fatalf("validation: %v", r.Result)
	}
	if r := validateAlert(a); r.Result["status"] != "failed" { // a's own first patch, so a may correct it
		t.Fatalf("validation: %v", r.Result)
	}
	mustAllow(t, patchAlert(a, alertCodemod))
}
