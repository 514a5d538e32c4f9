package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// The store lock is bounded both ways: a turn holds it at most
// store.lockTimeoutMs (past it the store rolls the turn back at the bound
// and the turn is denied LOCK_TIMEOUT), and waits for it at most
// store.busyTimeoutMs (STORE_BUSY). Work under the lock is made slow with
// the failpoint build (MCPC_FAILPOINT=lock:<part>, MCPC_FAILPOINT_SLEEP_MS),
// as a slow disk or a huge file would.

// waitLogged waits until the server has logged line.
func (l *lockLog) waitLogged(t *testing.T, line string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		l.mu.Lock()
		found := strings.Contains(l.buf.String(), line)
		l.mu.Unlock()
		if found {
			return
		}
	}
	t.Fatalf("the server never logged %q", line)
}

// asyncTurn sends req on a and returns where its answer arrives.
func asyncTurn(t *testing.T, a *agent, req map[string]any) <-chan *protocol.TurnResponse {
	done := make(chan *protocol.TurnResponse, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		r, err := a.c.Turn(ctx, req)
		if err != nil {
			t.Errorf("%v: %v", req["verb"], err)
		}
		done <- r
	}()
	return done
}

// TestLockBoundReleasesAtTheBound: a turn whose work under the lock stalls
// (before its patch, and after it wrote the file) is rolled back at
// store.lockTimeoutMs while it still runs: another process's turns go on
// before the stalled turn even answers, the stalled turn is a recorded
// LOCK_TIMEOUT denial naming the part that overran, the file holds what it
// held before, and the node can still be patched.
func TestLockBoundReleasesAtTheBound(t *testing.T) {
	patch := map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}}
	for _, tc := range []struct {
		note, part, verb, stage string
		args                    map[string]any
	}{
		{"a patch stalled before its write", "execute", "apply_code_patch", "execute", patch},
		{"a patch stalled after the file was written", "patched", "apply_code_patch", "execute", patch},
		{"a read stalled before any decision", "load", "read_file_lines", "load", map[string]any{"targetFile": demo.Target}},
		{"an escalate stalled after it rewrote the pack", "record", "escalate", "record", map[string]any{"need": "the orders grid service and its module"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ws := stagesWorkspace(t)
			a := acceptedWork(t, ws)
			mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
			before, err := os.ReadFile(filepath.Join(ws, demo.Target))
			must(t, err)
			packPath := filepath.Join(ws, ".ai", "tmp", "work", a.work, "context-pack.json")
			pack, err := os.ReadFile(packPath)
			must(t, err)
			slow, logs, _ := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=lock:"+tc.part,
				"MCPC_FAILPOINT_SLEEP_MS=6000", "MCPC_STORE_LOCK_TIMEOUT_MS=1000")
			slowTurn := asyncTurn(t, slow, map[string]any{"verb": tc.verb, "workId": a.work, "agentId": a.id, "args": tc.args})
			logs.waitLogged(t, "failpoint lock:"+tc.part+": sleeping")

			// The stalled turn holds (held) the lock: this process's turn
			// needs it, and gets it once the bound released it.
			waited := time.Now()
			lookup := a.turn("lookup_symbol_definition", map[string]any{"symbol": "DashboardComponent"})
			mustAllow(t, lookup)
			t.Logf("the other process's turn was answered after %s, while the stalled turn slept 6 s", time.Since(waited).Round(time.Millisecond)) // reported, not asserted
			select {
			case <-slowTurn:
				t.Fatal("the other process's turn waited for the stalled turn to end: the lock was not released at its bound")
			default:
			}
			var r *protocol.TurnResponse
			select {
			case r = <-slowTurn:
			case <-time.After(60 * time.Second):
				t.Fatal("the stalled turn was never answered")
			}
			mustDeny(t, r, "LOCK_TIMEOUT")
			if len(r.Result) > 0 {
				t.Errorf("a rolled-back turn answers as if it did something: %v", r.Result)
			}
			if !strings.Contains(r.Denials[0].Message, "in its "+tc.stage+" stage") || !strings.Contains(r.Denials[0].Message, "1000 ms") {
				t.Errorf("the denial does not say what overran: %s", r.Denials[0].Message)
			}
			after, err := os.ReadFile(filepath.Join(ws, demo.Target))
			must(t, err)
			if string(after) != string(before) {
				t.Errorf("the rolled-back patch is still in the file")
			}
			if packNow, err := os.ReadFile(packPath); err != nil || string(packNow) != string(pack) {
				t.Errorf("the pack document is not the one the store names (%v)", err)
			}
			if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work", a.work, "artifacts", "change-alert", "patch.intent.json")); err == nil {
				t.Error("the rolled-back patch left its intent")
			}
			// The same agent: its turn in between was charged, and so is the
			// rolled-back one, on top of it.
			if want := lookup.BudgetStatus.UsedTokens + r.BudgetStatus.Charged.RequestTokens; r.BudgetStatus.UsedTokens < want || r.BudgetStatus.Charged.RequestTokens == 0 {
				t.Errorf("the rolled-back turn was not charged to its agent: used %d, want at least %d", r.BudgetStatus.UsedTokens, want)
			}
			// ... and to its MCP session (the stalled process's own), which
			// had spent nothing before it.
			if r.BudgetStatus.SessionUsedTokens < r.BudgetStatus.Charged.RequestTokens {
				t.Errorf("the rolled-back turn was not charged to its session: %d, want at least %d", r.BudgetStatus.SessionUsedTokens, r.BudgetStatus.Charged.RequestTokens)
			}
			next := slow.turn("lookup_symbol_definition", map[string]any{"symbol": "DashboardComponent"}) // the same session, after
			if next.BudgetStatus.SessionUsedTokens < r.BudgetStatus.SessionUsedTokens+next.BudgetStatus.Charged.RequestTokens {
				t.Errorf("the session's next turn does not count the rolled-back one: %d after %d", next.BudgetStatus.SessionUsedTokens, r.BudgetStatus.SessionUsedTokens)
			}
			checkRecorded(t, ws, a.work, "LOCK_TIMEOUT", "execution")
			out, err := runCLI(ws, "explain-deny", "--work", a.work)
			if err != nil || !strings.Contains(out, "LOCK_TIMEOUT") {
				t.Errorf("explain-deny does not explain the rolled-back turn: %v\n%s", err, out)
			}
			// Nothing of the rolled-back turn stuck: the node is still
			// pending, and the same patch applies now.
			mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}}))
			t.Logf("the longest store-lock hold logged by the stalled process: %.1f ms (bound 1000 ms)", logs.worstSince(0))
		})
	}
}

// busyStore starts a process whose turn on work holds the store's lock for
// holdMs (the failpoint build), and a waiter process (agent "waiter") that
// waits at most waitMs for it; it returns the waiter, its process and
// where the holder's answer arrives, once the holder holds the lock.
func busyStore(t *testing.T, ws, work, holdMs, waitMs string) (*agent, *exec.Cmd, <-chan *protocol.TurnResponse) {
	t.Helper()
	holder, logs, _ := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=lock:execute",
		"MCPC_FAILPOINT_SLEEP_MS="+holdMs, "MCPC_STORE_LOCK_TIMEOUT_MS=60000")
	waiter, _, cmd := startWithLockLog(t, ws, "MCPC_STORE_BUSY_TIMEOUT_MS="+waitMs) // started first: starting takes the lock
	waiter.work, waiter.id = work, "waiter"
	held := asyncTurn(t, holder, map[string]any{"verb": "lookup_symbol_definition", "workId": work, "agentId": "holder",
		"args": map[string]any{"symbol": "DashboardComponent"}})
	logs.waitLogged(t, "failpoint lock:execute: sleeping")
	return waiter, cmd, held
}

// leftPending is an accepted work with one STORE_BUSY denial pending, left
// by a process killed before it could record it.
func leftPending(t *testing.T) (string, *agent) {
	t.Helper()
	ws := stagesWorkspace(t)
	a := acceptedWork(t, ws)
	waiter, cmd, held := busyStore(t, ws, a.work, "4000", "300")
	mustDeny(t, waiter.turn("read_file_lines", map[string]any{"targetFile": demo.Target}), "STORE_BUSY")
	must(t, cmd.Process.Kill()) // gone before its background retry could record it
	waitExited(cmd)
	mustAllow(t, <-held)
	if left := pendingFiles(ws, a.work); len(left) != 1 {
		t.Fatalf("want the one pending denial the killed process left, have %v", left)
	}
	return ws, a
}

// pendingFiles are the work's decisions waiting to be recorded.
func pendingFiles(ws, work string) []string {
	left, _ := filepath.Glob(filepath.Join(ws, ".ai", "tmp", "work", work, "pending-decisions", "*.json"))
	return left
}

// TestLockBoundBusyWaiter: a process whose turn cannot get the lock within
// store.busyTimeoutMs (another process's turn holds it, with a raised
// bound) is answered STORE_BUSY, structured and at once after its wait,
// and the same turn passes once the lock is free.
func TestLockBoundBusyWaiter(t *testing.T) {
	ws := stagesWorkspace(t)
	a := acceptedWork(t, ws)
	waiter, _, held := busyStore(t, ws, a.work, "5000", "500")

	r := waiter.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustDeny(t, r, "STORE_BUSY")
	if len(r.Result) > 0 {
		t.Errorf("a turn that never ran has a result: %v", r.Result)
	}
	select {
	case <-held:
		t.Fatal("the holder finished before the waiter was answered: the waiter waited for it")
	default:
	}
	// Not silent while the lock is still taken: the denial waits, durably,
	// in the file the answer names, and explain-deny explains it.
	if !strings.Contains(r.TraceRef, "/pending-decisions/") {
		t.Errorf("the answer does not name where the STORE_BUSY denial waits: %q", r.TraceRef)
	} else if _, err := os.Stat(filepath.Join(ws, r.TraceRef)); err != nil {
		t.Errorf("the pending denial %s is not on disk: %v", r.TraceRef, err)
	}
	if out, err := runCLI(ws, "explain-deny", "--work", a.work); err != nil || !strings.Contains(out, "STORE_BUSY") {
		t.Errorf("explain-deny does not explain the pending STORE_BUSY denial: %v\n%s", err, out)
	}
	mustAllow(t, <-held)
	// Once the lock is free the waiter's process records it, with its
	// charge, as the work's next decision.
	checkRecorded(t, ws, a.work, "STORE_BUSY", "execution")
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && len(pendingFiles(ws, a.work)) > 0; {
		time.Sleep(50 * time.Millisecond)
	}
	if left := pendingFiles(ws, a.work); len(left) > 0 {
		t.Errorf("recorded pending denials are still pending: %v", left)
	}
	again := waiter.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, again)
	if want := r.BudgetStatus.Charged.RequestTokens + again.BudgetStatus.Charged.RequestTokens; again.BudgetStatus.UsedTokens < want {
		t.Errorf("the STORE_BUSY turn was not charged to the waiter: used %d, want at least %d", again.BudgetStatus.UsedTokens, want)
	}
	if out, err := runCLI(ws, "explain-deny", "--work", a.work); err != nil || !strings.Contains(out, "STORE_BUSY") {
		t.Errorf("explain-deny does not explain the recorded STORE_BUSY denial: %v\n%s", err, out)
	}
}

// TestLockBoundPendingRecordedByNextProcess: a STORE_BUSY denial whose
// process ended before the lock was free is recorded by the next process
// that starts on the workspace.
func TestLockBoundPendingRecordedByNextProcess(t *testing.T) {
	ws, a := leftPending(t)
	startServer(t, ws).turn("lookup_symbol_definition", map[string]any{"symbol": "DashboardComponent"})
	checkRecorded(t, ws, a.work, "STORE_BUSY", "execution")
}

// TestLockBoundValidationNotStarted: a validation command whose program is
// missing is a recorded EXEC_FAILED denial at the execution stage, not a
// result.error beside an allowed turn.
func TestLockBoundValidationNotStarted(t *testing.T) {
	ws := stagesWorkspace(t)
	cfg := filepath.Join(ws, ".ai", "config", "repo.json")
	raw, err := os.ReadFile(cfg)
	must(t, err)
	i := strings.Index(string(raw), `"argv": ["sh", "-c", "if grep`)
	j := strings.Index(string(raw[i:]), "\n")
	must(t, os.WriteFile(cfg, []byte(string(raw[:i])+`"argv": ["mcpc-no-such-program"],`+string(raw[i+j:])), 0o644))
	a := acceptedWork(t, ws)
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}}))
	r := a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}})
	mustDeny(t, r, "EXEC_FAILED")
	if r.Result["error"] != nil || r.Result["passed"] != false {
		t.Errorf("the result is not the run's facts: %v", r.Result)
	}
	if !strings.Contains(r.Denials[0].Message, "did not start") || r.Denials[0].Path != "args.params.commandId" {
		t.Errorf("the denial does not say the command did not start: %+v", r.Denials[0])
	}
	rec := checkRecorded(t, ws, a.work, "EXEC_FAILED", "execution")
	if len(rec.Stages) == 0 || !rec.Stages[len(rec.Stages)-1].Result.Allow {
		t.Errorf("the record does not keep the stage that allowed the run: %+v", rec.Stages)
	}
}

// TestLockBoundValidationNotRecorded: a validation that ran but whose
// outcome the store could not take (MCPC_FAILPOINT=validation-record fails
// that write) is a recorded EXEC_UNRECORDED denial; the run's exit code is
// in the answer as a fact.
func TestLockBoundValidationNotRecorded(t *testing.T) {
	ws := stagesWorkspace(t)
	a, _, _ := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=validation-record")
	init := a.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}}))
	r := a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}})
	mustDeny(t, r, "EXEC_UNRECORDED")
	if r.Result["error"] != nil || r.Result["passed"] != true || r.Result["exitCode"] != float64(0) {
		t.Errorf("the run's outcome is not told as facts: %v", r.Result)
	}
	checkRecorded(t, ws, a.work, "EXEC_UNRECORDED", "execution")
	out, err := runCLI(ws, "explain-deny", "--work", a.work)
	if err != nil || !strings.Contains(out, "EXEC_UNRECORDED") {
		t.Errorf("explain-deny does not explain it: %v\n%s", err, out)
	}
}

// TestLockBoundCommitNotRecorded: a gated commit that was made but could not
// be marked executed (MCPC_FAILPOINT=side-effect-record) is a recorded
// SIDE_EFFECT_UNRECORDED denial whose answer and message name the commit,
// which exists.
func TestLockBoundCommitNotRecorded(t *testing.T) {
	ws := newWorkspace(t)
	git := gitRepo(t, ws)
	a, _, _ := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=side-effect-record")
	a.readyToCommit(ws)
	r := a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"})
	mustDeny(t, r, "SIDE_EFFECT_UNRECORDED")
	head := strings.TrimSpace(git("rev-parse", "HEAD"))
	if r.Result["commit"] != head || r.Result["error"] != nil {
		t.Errorf("the answer does not name the commit %s as a fact: %v", head, r.Result)
	}
	if !strings.Contains(r.Denials[0].Message, head) {
		t.Errorf("the denial does not name the commit: %s", r.Denials[0].Message)
	}
	checkRecorded(t, ws, a.work, "SIDE_EFFECT_UNRECORDED", "execution")
	out, err := runCLI(ws, "explain-deny", "--work", a.work)
	if err != nil || !strings.Contains(out, "SIDE_EFFECT_UNRECORDED") || !strings.Contains(out, head) {
		t.Errorf("explain-deny does not explain it with the commit: %v\n%s", err, out)
	}
}

// TestLockBoundInitializeRolledBack: an initialize_work still under the
// lock at its bound (stalled after it wrote its pack) leaves no work behind:
// the answer names none, and no pack document is left for a work the store
// never kept.
func TestLockBoundInitializeRolledBack(t *testing.T) {
	ws := stagesWorkspace(t)
	slow, logs, _ := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=lock:record",
		"MCPC_FAILPOINT_SLEEP_MS=3000", "MCPC_STORE_LOCK_TIMEOUT_MS=1000")
	done := asyncTurn(t, slow, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert"}}})
	logs.waitLogged(t, "failpoint lock:record: sleeping")
	r := <-done
	mustDeny(t, r, "LOCK_TIMEOUT")
	if r.WorkID != "" || len(r.Result) > 0 {
		t.Errorf("a rolled-back initialize_work names a work or a result: %q %v", r.WorkID, r.Result)
	}
	packs, _ := filepath.Glob(filepath.Join(ws, ".ai", "tmp", "work", "*", "context-pack.json"))
	if len(packs) > 0 {
		t.Errorf("the rolled-back work left its pack: %v", packs)
	}
	out, err := runCLI(ws, "works")
	if err != nil || strings.Contains(out, "work-") {
		t.Errorf("the store lists a work after the rollback: %v\n%s", err, out)
	}
}
