package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestGatedCommitHangingHook: a pre-commit hook that never ends (and
// whose child holds git's output) is killed with its process group once
// sideEffects.timeoutSec passes; the turn answers, nothing is committed and
// the node stays pending. The gate is approved with the positional form.
func TestGatedCommitHangingHook(t *testing.T) {
	ws := newWorkspace(t)
	git := gitRepo(t, ws)
	base := git("rev-parse", "HEAD")
	a, _, _ := startServerEnv(t, ws, "MCPC_SIDE_EFFECTS_TIMEOUT_SEC=1")
	init := a.initialize(demo.Prompt, "adp-alert")
	plan := demo.Plan(envelopeOf(init), true)
	plan["nodes"] = append(plan["nodes"].([]any), map[string]any{
		"nodeId": "commit", "kind": "side_effect", "dependsOn": []string{"validate-alert"},
		"atomicityBoundary": "repository", "expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "git revert",
		"sideEffectType": "git_commit", "sideEffectPayloadRef": "scratch:msg", "commitGateId": "release-gate",
	})
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	mustAllow(t, patchAlert(a, alertCodemod))
	if r := validateAlert(a); r.Result["status"] != "passed" {
		t.Fatalf("validation: %v", r.Result)
	}
	mustAllow(t, a.turn("write_scratch_file", map[string]any{"relativePath": "msg", "content": "Use sdf-alert"}))
	if out, err := runCLI(ws, "gate", "approve", "release-gate", "--work", a.work); err != nil {
		t.Fatalf("gate approve GATE --work: %v\n%s", err, out)
	}
	if out, err := runCLI(ws, "gate", "approve", "other-gate", "--gate", "release-gate", "--work", a.work); err == nil {
		t.Errorf("a gate given twice, differently, was approved:\n%s", out)
	}
	hook := filepath.Join(ws, ".git", "hooks", "pre-commit")
	must(t, os.WriteFile(hook, []byte("#!/bin/sh\nsleep 300 &\nsleep 300\n"), 0o755))
	r := a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"})
	// The commit stopped after the transaction is a recorded EXEC_FAILED
	// denial, not free text.
	mustDeny(t, r, "EXEC_FAILED")
	if !strings.Contains(r.Denials[0].Message, "git commit failed") || r.Result["executed"] == true {
		t.Fatalf("a hanging hook: %v, result %v", r.DenyReasons, r.Result)
	}
	if head := git("rev-parse", "HEAD"); head != base {
		t.Errorf("HEAD moved to %s", head)
	}
	if p := a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}); p.Progress.RemainingNodes != 1 {
		t.Errorf("after the stopped commit %d nodes remain, want the side effect's", p.Progress.RemainingNodes)
	}
}
