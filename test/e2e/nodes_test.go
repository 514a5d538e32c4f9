package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/protocol"
)

// acceptedWork starts a process on ws, initializes a work and has the demo
// plan (change-alert, validated by validate-alert) accepted.
func acceptedWork(t *testing.T, ws string) *agent {
	t.Helper()
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	return a
}

// alertCodemod is the demo's patch of its target: adp-alert becomes sdf-alert.
var alertCodemod = map[string]any{"op": "codemod", "codemod": "rewrite_template_tag", "params": map[string]any{"from": "adp-alert", "to": "sdf-alert"}}

func patchAlert(a *agent, edits ...any) *protocol.TurnResponse {
	a.t.Helper()
	mustAllow(a.t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	return a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": edits})
}

func validateAlert(a *agent) *protocol.TurnResponse {
	a.t.Helper()
	return a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}})
}

// TestPatchOnce: a change node is patched once, by whichever agent; again
// only as a correction after its validation failed, which sends that
// validation back to pending.
func TestPatchOnce(t *testing.T) {
	ws := newWorkspace(t)
	a := acceptedWork(t, ws)
	b := startServer(t, ws) // a sub-agent in its own process
	b.work = a.work
	b.id = b.turn("read_file_lines", map[string]any{"targetFile": demo.Target}).AgentID

	incomplete := map[string]any{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`}
	mustAllow(t, patchAlert(a, incomplete))
	if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work", a.work, "artifacts", "change-alert", "patch.intent.json")); !os.IsNotExist(err) {
		t.Errorf("a committed patch left its intent behind: %v", err)
	}
	mustDeny(t, patchAlert(b, alertCodemod), "EXEC_PREREQUISITE_UNMET") // its validation has not run
	if r := validateAlert(a); r.Result["status"] != "failed" {
		t.Fatalf("validation of the incomplete patch: %v", r.Result)
	}
	corrected := patchAlert(b, alertCodemod)
	mustAllow(t, corrected)
	if p := corrected.Progress.PendingValidations; len(p) != 1 || p[0].Status != "not_started" {
		t.Errorf("after the correction the validation is %+v, want it not started again", p)
	}
	mustDeny(t, patchAlert(a, map[string]any{"op": "replace_text", "find": "sdf-alert", "replace": "adp-alert"}), "EXEC_PREREQUISITE_UNMET")
	if r := validateAlert(a); r.Result["status"] != "passed" {
		t.Fatalf("validation of the correction: %v", r.Result)
	}
	mustDeny(t, patchAlert(b, map[string]any{"op": "replace_text", "find": "sdf-alert", "replace": "adp-alert"}), "EXEC_PREREQUISITE_UNMET")
	if done := a.turn("signal_task_complete", nil); done.State != "COMPLETED" {
		t.Fatalf("completion: %v", done.DenyReasons)
	}
}

// TestOverlappingValidations: two runs of one validation overlap; only the
// later one records its outcome, so the work cannot complete on the earlier
// run's pass while the later one is under way, nor keep it after that one
// fails.
func TestOverlappingValidations(t *testing.T) {
	ws := newWorkspace(t)
	// The first run passes after 0.4 s, the second fails after 1.2 s. They
	// count in the one worktree folder the sandbox lets them write.
	must(t, os.Mkdir(filepath.Join(ws, "out"), 0o755))
	count := "out/runs"
	config := fmt.Sprintf(`{"sandbox": {"writable": ["out"]}, "validation": {"commands": {"no-adp-alert": {"argv": ["sh", "-c", %q], "timeoutSec": 30}}}}`,
		fmt.Sprintf(`n=$(cat %s 2>/dev/null || echo 0); echo $((n+1)) > %s || exit 9; if [ "$n" = 0 ]; then sleep 0.4; exit 0; fi; sleep 1.2; exit 1`, count, count))
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(config), 0o644))
	a := acceptedWork(t, ws)
	mustAllow(t, patchAlert(a, alertCodemod))

	// Both runs from one client at once; a.turn may fail the test, which
	// only the test's goroutine may do.
	validate := func() <-chan *protocol.TurnResponse {
		out := make(chan *protocol.TurnResponse, 1)
		req := map[string]any{"verb": "run_automation_recipe", "workId": a.work, "agentId": a.id, "args": map[string]any{
			"recipeId": "run_targeted_validation", "planNodeId": "validate-alert", "params": map[string]any{"commandId": "no-adp-alert"}}}
		go func() {
			r, err := a.c.Turn(t.Context(), req)
			if err != nil {
				r = &protocol.TurnResponse{Result: map[string]any{"error": err.Error()}}
			}
			out <- r
		}()
		return out
	}
	first := validate()
	time.Sleep(150 * time.Millisecond)
	second := validate()

	r1 := <-first
	if r1.Result["superseded"] != true || r1.Result["passed"] != true || r1.Result["status"] != "running" {
		t.Errorf("the earlier run: %v, want its pass reported as superseded and the node running", r1.Result)
	}
	mustDeny(t, a.turn("signal_task_complete", nil), "WORK_INCOMPLETE")
	r2 := <-second
	if r2.Result["superseded"] != nil || r2.Result["status"] != "failed" {
		t.Errorf("the later run: %v, want its failure recorded", r2.Result)
	}
	mustDeny(t, a.turn("signal_task_complete", nil), "WORK_INCOMPLETE")
}

// TestDependencyOrder: a node runs only after the nodes it depends on. The
// demo's change waits for an escalation the plan put before it, and runs
// once the escalation is resolved.
func TestDependencyOrder(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	plan := demo.Plan(envelopeOf(init), true)
	nodes := plan["nodes"].([]any)
	for _, n := range nodes {
		if n := n.(map[string]any); n["nodeId"] == "change-alert" {
			n["dependsOn"] = []string{"ask"}
		}
	}
	plan["nodes"] = append(nodes, map[string]any{
		"nodeId": "ask", "kind": "escalate", "dependsOn": []string{},
		"atomicityBoundary": "none", "expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "",
		"requestedEvidence": []string{"the alert's unit tests"}, "blockingReasons": []string{"the tests may pin the old tag"},
	})
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	denied := patchAlert(a, alertCodemod)
	mustDeny(t, denied, "EXEC_PREREQUISITE_UNMET")
	if want := `change node "change-alert" depends on ask (pending)`; denied.Denials[0].Message != want || denied.SuggestedAction.Verb != "escalate" {
		t.Errorf("denial %q suggesting %q, want %q suggesting escalate", denied.Denials[0].Message, denied.SuggestedAction.Verb, want)
	}
	mustAllow(t, a.turn("escalate", map[string]any{"planNodeId": "ask", "need": "the alert component's unit tests"}))
	mustAllow(t, patchAlert(a, alertCodemod))
}

// TestValidationTimeoutKillsItsProcesses: a validation that runs past its
// timeout is killed with everything it started (a shell's test runner),
// not only its direct child.
func TestValidationTimeoutKillsItsProcesses(t *testing.T) {
	ws := newWorkspace(t)
	ready, marker := runnerValidation(t, ws, 2)
	a := acceptedWork(t, ws)
	mustAllow(t, patchAlert(a, alertCodemod))
	// The runner is found while the validation runs; a.turn may fail the
	// test, which only the test's goroutine may do.
	done := make(chan *protocol.TurnResponse, 1)
	go func() {
		r, err := a.c.Turn(t.Context(), map[string]any{"verb": "run_automation_recipe", "workId": a.work, "agentId": a.id, "args": map[string]any{
			"recipeId": "run_targeted_validation", "planNodeId": "validate-alert", "params": map[string]any{"commandId": "no-adp-alert"}}})
		if err != nil {
			r = &protocol.TurnResponse{Result: map[string]any{"error": err.Error()}}
		}
		done <- r
	}()
	runner := waitForRunner(t, ready, marker)
	if r := <-done; r.Result["status"] != "failed" || r.Result["timedOut"] != true {
		t.Fatalf("a validation past its timeout: %v", r.Result)
	}
	waitGone(t, runner, "the validation's child process %s outlived its timeout: %s")
}

// TestValidationDiesWithServer: an mcpc killed outright (kill -9) while a
// validation runs takes the validation down with it, with everything it
// started (a shell's test runner), rather than leaving them running with
// nobody to record them.
func TestValidationDiesWithServer(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux ties a child's life to its parent's")
	}
	ws := newWorkspace(t)
	ready, marker := runnerValidation(t, ws, 120)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	server := exec.Command(binary, "serve", "--workspace", ws)
	c, err := mcp.Dial(ctx, server)
	must(t, err)
	defer c.Close()
	a := &agent{t: t, c: c}
	init := a.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	mustAllow(t, patchAlert(a, alertCodemod))
	go func() { // answered only by the server's death
		_, _ = c.Turn(ctx, map[string]any{"verb": "run_automation_recipe", "workId": a.work, "agentId": a.id, "args": map[string]any{
			"recipeId": "run_targeted_validation", "planNodeId": "validate-alert", "params": map[string]any{"commandId": "no-adp-alert"}}})
	}()
	runner := waitForRunner(t, ready, marker)
	must(t, server.Process.Kill())
	waitGone(t, runner, "the validation's child process %s outlived the killed server: %s")
}

// runnerValidation configures ws's no-adp-alert validation to start a
// runner (a sleep) in the background and wait for it, with timeout
// seconds. It returns the file the validation writes once the runner
// started, and the runner's argument that finds it among the host's
// processes: a sandboxed command's own pids are those of its PID namespace.
func runnerValidation(t *testing.T, ws string, timeout int) (ready, marker string) {
	t.Helper()
	must(t, os.Mkdir(filepath.Join(ws, "out"), 0o755))
	marker = fmt.Sprintf("60.%09d", time.Now().UnixNano()%1e9)
	config := fmt.Sprintf(`{"sandbox": {"writable": ["out"]}, "validation": {"commands": {"no-adp-alert": {"argv": ["sh", "-c", %q], "timeoutSec": %d}}}}`,
		fmt.Sprintf(`sleep %s & echo started > out/ready; wait`, marker), timeout)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(config), 0o644))
	return filepath.Join(ws, "out", "ready"), marker
}

// waitForRunner waits for a validation to write ready and returns the
// host pid of its runner, the process whose arguments are sleep marker.
func waitForRunner(t *testing.T, ready, marker string) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if raw, err := os.ReadFile(ready); err == nil && strings.HasSuffix(string(raw), "\n") {
			if pid := findProcess("sleep\x00" + marker + "\x00"); pid != "" {
				return pid
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the validation never started its runner")
		}
	}
}

// findProcess returns the pid of a process whose command line (NUL
// separated) is cmdline, "" if there is none.
func findProcess(cmdline string) string {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if raw, err := os.ReadFile(p); err == nil && string(raw) == cmdline {
			return filepath.Base(filepath.Dir(p))
		}
	}
	return ""
}

// waitGone waits for process pid to end (gone, or a zombie waiting to be
// reaped: killed) and fails with format (pid, its /proc stat) if it does
// not within 10 seconds.
func waitGone(t *testing.T, pid, format string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil || strings.Contains(string(stat), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf(format, pid, stat)
		}
	}
}

// TestRequiredValidation: a command the repository marks required must
// validate every change it covers; the demo plan, which runs only
// no-adp-alert, is refused until it runs templates-balanced too.
func TestRequiredValidation(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"),
		[]byte(`{"validation": {"commands": {"templates-balanced": {"required": true}}}}`), 0o644))
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	plan := demo.Plan(envelopeOf(init), true)
	denied := a.turn("submit_execution_plan", map[string]any{"planGraph": plan})
	mustDeny(t, denied, "PLAN_VERIFICATION_WEAK")
	if want := `change node "change-alert": ` + demo.Target + ` must be validated by "templates-balanced", which this repository requires`; denied.Denials[0].Message != want {
		t.Errorf("denial %q, want %q", denied.Denials[0].Message, want)
	}
	validate := plan["nodes"].([]any)[1].(map[string]any)
	validate["verificationHooks"] = append(validate["verificationHooks"].([]any),
		map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "templates-balanced"}})
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
}
