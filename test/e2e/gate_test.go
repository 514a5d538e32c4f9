package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestGatedCommit: a side_effect node runs only after a person approves its
// commit gate; git_commit then commits exactly the files the work patched.
func TestGatedCommit(t *testing.T) {
	ws := newWorkspace(t)
	git := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", ws, "-c", "user.name=t", "-c", "user.email=t@localhost"}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	plan := demo.Plan(envelopeOf(init), true)
	plan["nodes"] = append(plan["nodes"].([]any), map[string]any{
		"nodeId": "commit", "kind": "side_effect", "dependsOn": []string{"validate-alert"},
		"atomicityBoundary": "repository", "expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "git revert",
		"sideEffectType": "git_commit", "sideEffectPayloadRef": "scratch:commit-message", "commitGateId": "release-gate",
	})
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "codemod", "codemod": "rewrite_template_tag", "params": map[string]any{"from": "adp-alert", "to": "sdf-alert"}}}}))
	mustDeny(t, a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"}), "EXEC_UNGATED_SIDE_EFFECT")
	if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "not-a-gate"); err == nil {
		t.Errorf("approved a gate no node names:\n%s", out)
	}
	if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "release-gate", "--by", "reviewer", "--note", "looks right"); err != nil {
		t.Fatalf("gate approve: %v\n%s", err, out)
	}
	done := a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"})
	mustAllow(t, done)
	if done.Result["executed"] != true || done.Result["commit"] != git("rev-parse", "HEAD") {
		t.Fatalf("result %v", done.Result)
	}
	if files := git("show", "--name-only", "--format=", "HEAD"); files != demo.Target {
		t.Errorf("the commit holds %q, want only %s", files, demo.Target)
	}
	if !strings.Contains(git("log", "-1", "--format=%B"), a.work) {
		t.Errorf("the commit message does not name the work")
	}
}
