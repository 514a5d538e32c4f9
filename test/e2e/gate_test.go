package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// TestGatedCommit: a side_effect node runs only after a person approves its
// commit gate; git_commit then commits exactly the files the work patched,
// once. The commit runs outside the store's lock: another process's turns
// are answered while the repository's pre-commit hook runs.
func TestGatedCommit(t *testing.T) {
	ws := newWorkspace(t)
	git := gitRepo(t, ws)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	plan := demo.Plan(envelopeOf(init), true)
	plan["nodes"] = append(plan["nodes"].([]any), map[string]any{
		"nodeId": "commit", "kind": "side_effect", "dependsOn": []string{"validate-alert"},
		"atomicityBoundary": "repository", "expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "git revert",
		"sideEffectType": "git_commit", "sideEffectPayloadRef": "scratch:commit-message", "commitGateId": "release-gate",
	})
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	approve := func() {
		t.Helper()
		if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "release-gate", "--by", "reviewer", "--note", "looks right"); err != nil {
			t.Fatalf("gate approve: %v\n%s", err, out)
		}
	}
	const message = "Replace adp-alert with sdf-alert on the dashboard\n\nThe agent's own words."
	// An approval is for the plan the person saw: a replaced plan needs its own.
	approve()
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{alertCodemod}}))
	mustDeny(t, a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"}), "EXEC_UNGATED_SIDE_EFFECT")
	// No message written yet: nothing to commit with.
	mustDeny(t, a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"}), "EXEC_SIDE_EFFECT_PAYLOAD_INVALID")
	mustAllow(t, a.turn("write_scratch_file", map[string]any{"relativePath": "commit-message", "content": message + "\n"}))
	if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "not-a-gate"); err == nil {
		t.Errorf("approved a gate no node names:\n%s", out)
	}
	approve()
	// Nothing is committed before the validations pass.
	mustDeny(t, a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"}), "EXEC_PREREQUISITE_UNMET")
	mustAllow(t, a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}}))
	hook := filepath.Join(ws, ".git", "hooks", "pre-commit")
	must(t, os.WriteFile(hook, []byte("#!/bin/sh\nsleep 1.5\n"), 0o755))
	b := startServer(t, ws)
	b.work = a.work
	mustAllow(t, b.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	committed := make(chan *protocol.TurnResponse, 1)
	go func() {
		r, err := a.c.Turn(t.Context(), map[string]any{"verb": "execute_gated_side_effect", "workId": a.work, "agentId": a.id,
			"args": map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"}})
		if err != nil {
			r = &protocol.TurnResponse{DenyReasons: []string{err.Error()}}
		}
		committed <- r
	}()
	time.Sleep(300 * time.Millisecond) // the commit is in its hook now
	mustAllow(t, b.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	select {
	case <-committed:
		t.Fatal("the read was answered only after the gated commit: it waited for the hook")
	default:
	}
	done := <-committed
	mustAllow(t, done)
	if done.Result["executed"] != true || done.Result["commit"] != git("rev-parse", "HEAD") {
		t.Fatalf("result %v", done.Result)
	}
	if files := git("show", "--name-only", "--format=", "HEAD"); files != demo.Target {
		t.Errorf("the commit holds %q, want only %s", files, demo.Target)
	}
	if got := git("log", "-1", "--format=%B"); got != message {
		t.Errorf("the commit message is %q, want the payload %q", got, message)
	}
	mustDeny(t, b.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"}), "EXEC_SIDE_EFFECT_COLLISION")
}
