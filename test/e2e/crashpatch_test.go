package e2e

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// crashingAgent starts serve on ws set to die once a patch has written its
// file (MCPC_FAILPOINT ends it there, before the turn commits), and has the
// demo plan accepted.
func crashingAgent(t *testing.T, ws string) (*agent, *protocol.TurnResponse) {
	t.Helper()
	a := startFailpointServer(t, ws, "patch-written")
	init := a.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	return a, init
}

// patchAndDie sends the demo patch to a crashingAgent's process, which must
// die instead of answering.
func (a *agent) patchAndDie() {
	a.t.Helper()
	mustAllow(a.t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := a.c.Turn(ctx, map[string]any{"verb": "apply_code_patch", "workId": a.work, "agentId": a.id,
		"args": map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}}}); err == nil {
		a.t.Fatal("the patch was answered; the process should have died after writing the file")
	}
}

// TestPatchAfterACrash: a process dies between writing a patch's file and
// committing its turn (MCPC_FAILPOINT ends it there). The file is patched
// and the store does not know; the next serve on the workspace records the
// patch, so the work goes on to its validation and completes instead of
// being stuck on a node whose patch no longer applies.
func TestPatchAfterACrash(t *testing.T) {
	ws := newWorkspace(t)
	a, _ := crashingAgent(t, ws)
	a.patchAndDie()
	content, err := os.ReadFile(filepath.Join(ws, demo.Target))
	must(t, err)
	if !strings.Contains(string(content), "sdf-alert") || strings.Contains(string(content), "<adp-alert") {
		t.Fatalf("the dead process had not patched the file:\n%s", content)
	}
	intent := filepath.Join(ws, ".ai", "tmp", "work", a.work, "artifacts", "change-alert", "patch.intent.json")
	if _, err := os.Stat(intent); err != nil {
		t.Fatalf("no patch intent left behind: %v", err)
	}

	b := startServer(t, ws, "--no-warm")
	b.work = a.work
	read := b.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, read)
	b.id = read.AgentID
	if _, err := os.Stat(intent); !os.IsNotExist(err) {
		t.Errorf("the intent is still there after the next start: %v", err)
	}
	mustDeny(t, b.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}}),
		"EXEC_PREREQUISITE_UNMET") // recorded as patched: patched once
	if r := validateAlert(b); r.Result["status"] != "passed" {
		t.Fatalf("validation of the recovered patch: %v", r.Result)
	}
	if done := b.turn("signal_task_complete", nil); done.State != "COMPLETED" {
		t.Fatalf("completion: %v", done.DenyReasons)
	}
	ledger, err := os.ReadFile(filepath.Join(ws, ".orchestration", "agent_trace.jsonl"))
	must(t, err)
	if n := strings.Count(string(ledger), `"value":"change-alert"`); n != 1 {
		t.Errorf("the trace ledger has %d records of the patch, want 1:\n%s", n, ledger)
	}
}

// TestCrashedPatchUnderAReplacedPlan: a process dies mid-patch (file
// written, turn not committed) and, before any process starts again,
// another agent's live process replaces the plan (nothing had started, as
// far as the store knew) with a change node of the same id on another
// file. The next start must not record the dead patch as that node's: the
// new node is still to be patched, and the new plan has not started.
func TestCrashedPatchUnderAReplacedPlan(t *testing.T) {
	ws := newWorkspace(t)
	a, init := crashingAgent(t, ws)

	b := startServer(t, ws, "--no-warm") // live before the crash: its start recovered nothing
	b.work = a.work
	b.id = b.turn("read_file_lines", map[string]any{"targetFile": demo.Target}).AgentID

	a.patchAndDie()

	other := "src/app/dashboard/dashboard.component.ts"
	replacement := func(agentID string) map[string]any {
		env := maps.Clone(envelopeOf(init))
		env["agentId"] = agentID
		plan := demo.Plan(env, true)
		change := plan["nodes"].([]any)[0].(map[string]any)
		change["targetFile"], change["whyThisFile"] = other, "the component that passes the alert its inputs"
		change["codeEvidence"] = []any{map[string]any{"file": other, "startLine": 1, "endLine": 1}}
		return plan
	}
	mustAllow(t, b.turn("read_file_lines", map[string]any{"targetFile": other}))
	mustAllow(t, b.turn("submit_execution_plan", map[string]any{"planGraph": replacement(b.id)}))

	next := startServer(t, ws, "--no-warm")
	next.work = a.work
	next.id = next.turn("read_file_lines", map[string]any{"targetFile": other}).AgentID
	intent := filepath.Join(ws, ".ai", "tmp", "work", a.work, "artifacts", "change-alert", "patch.intent.json")
	if _, err := os.Stat(intent); !os.IsNotExist(err) {
		t.Errorf("the intent is still there after the next start: %v", err)
	}
	// Not started: the plan can still be replaced, which a recorded patch forbids.
	mustAllow(t, next.turn("submit_execution_plan", map[string]any{"planGraph": replacement(next.id)}))
}
