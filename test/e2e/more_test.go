package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestBudget: an agent past its threshold is BLOCKED_BUDGET with that state's
// verbs; the other agents of the work are not: each draws its own slice
// from the work's pool, and an agentId arriving when the pool is spent gets
// none.
func TestBudget(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(`{"budget": {"maxTokens": 10000, "thresholdPercent": 0.5, "workMaxTokens": 20000}}`), 0o644))
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	if init.BudgetStatus.ThresholdTokens != 5000 || init.BudgetStatus.MaxTokens != 10000 || init.BudgetStatus.WorkGrantedTokens != 10000 {
		t.Fatalf("budget = %+v", init.BudgetStatus)
	}
	var last = init
	for i := 0; i < 40 && !last.BudgetStatus.Blocked; i++ {
		last = a.turn("write_scratch_file", map[string]any{"relativePath": "n.md", "content": strings.Repeat("y", 2000)})
	}
	if !last.BudgetStatus.Blocked || last.State != "BLOCKED_BUDGET" {
		t.Fatalf("never blocked: %+v state %s", last.BudgetStatus, last.State)
	}
	want := []string{"initialize_work", "escalate", "signal_task_complete"}
	if !slices.Equal(last.Capabilities, want) {
		t.Errorf("BLOCKED_BUDGET capabilities %v, want %v", last.Capabilities, want)
	}
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}), "BUDGET_EXCEEDED")
	// Another agent of the same work is unaffected: it has a slice of its own.
	b := startServer(t, ws)
	b.work = a.work
	r := b.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, r)
	if r.State != "PLANNING" || r.BudgetStatus.WorkGrantedTokens != 20000 || r.BudgetStatus.MaxTokens != 10000 {
		t.Errorf("the other agent is in %s (budget %+v)", r.State, r.BudgetStatus)
	}
	// Its own spending blocks it alone, at its own threshold.
	b.id = r.AgentID
	for last = r; !last.BudgetStatus.Blocked && last.BudgetStatus.UsedTokens < 20000; {
		last = b.turn("write_scratch_file", map[string]any{"relativePath": "n.md", "content": strings.Repeat("y", 2000)})
	}
	if !last.BudgetStatus.Blocked {
		t.Fatalf("the second agent's slice did not block it: %+v", last.BudgetStatus)
	}
	r = b.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustDeny(t, r, "BUDGET_EXCEEDED")
	if !strings.Contains(r.Denials[0].Message, "past its threshold of 5000") {
		t.Errorf("%s", r.Denials[0].Message)
	}
	// The pool (two slices) is spent: a new agentId gets no slice.
	r = b.turn("read_file_lines", map[string]any{"targetFile": demo.Target}, "agentId", "agent-fresh")
	mustDeny(t, r, "BUDGET_EXCEEDED")
	if !strings.Contains(r.Denials[0].Message, "no slice of 10000 is left for agent agent-fresh") || r.BudgetStatus.MaxTokens != 0 {
		t.Errorf("%s (budget %+v)", r.Denials[0].Message, r.BudgetStatus)
	}
}

// TestPlanLifecycleRules: resubmission replaces a plan only before any node
// started; a failing validation marks its node failed and completion waits.
func TestPlanLifecycleRules(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(`{"validation": {"commands": {"always-fails": {"argv": ["sh", "-c", "echo broken; exit 3"]}}}}`), 0o644))
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	env := envelopeOf(init)
	plan := demo.Plan(env, true)
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	// Replace it while nothing started: the validate node now runs a failing command.
	nodes := plan["nodes"].([]any)
	hooks := []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "always-fails"}}}
	nodes[0].(map[string]any)["verificationHooks"] = hooks
	nodes[1].(map[string]any)["verificationHooks"] = hooks
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	before, _ := os.ReadFile(filepath.Join(ws, demo.Target))
	// A patch is built on a read of the file in this work.
	mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": "<adp-alert", "replace": "<sdf-alert"}}}), "STALE_CONTEXT")
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": "<adp-alert", "replace": "<sdf-alert"},
			map[string]any{"op": "replace_text", "find": "not in the file", "replace": "x"}}}), "EXEC_PATCH_INAPPLICABLE")
	if after, _ := os.ReadFile(filepath.Join(ws, demo.Target)); string(after) != string(before) {
		t.Fatalf("an inapplicable patch changed the file")
	}
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": "<adp-alert", "replace": "<sdf-alert"}}}))
	mustDeny(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}), "PLAN_LOCKED")
	// A command that is not one of the node's hooks is refused.
	if r := a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}}); len(r.Denials) == 0 {
		t.Errorf("a command outside the node's verificationHooks ran")
	}
	val := a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "always-fails"}})
	mustAllow(t, val)
	if val.Result["status"] != "failed" || val.Result["exitCode"] != float64(3) || !strings.Contains(val.Result["output"].(string), "broken") {
		t.Fatalf("failing validation result: %v", val.Result)
	}
	if len(val.Progress.PendingValidations) != 1 || val.Progress.PendingValidations[0].Status != "failed" {
		t.Errorf("pendingValidations = %+v", val.Progress.PendingValidations)
	}
	mustDeny(t, a.turn("signal_task_complete", nil), "WORK_INCOMPLETE")
	// Stale read: the file changes behind the agent's back after its read.
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	must(t, os.WriteFile(filepath.Join(ws, demo.Target), []byte("<p>edited by a person</p>\n<sdf-alert></sdf-alert>\n"), 0o644))
	mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": "<p>", "replace": "<div>"}}}), "STALE_CONTEXT")
}

// TestEscalate grows the pack monotonically and re-hashes it.
func TestEscalate(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(`{"pack": {"maxFiles": 2}}`), 0o644))
	a := startServer(t, ws)
	init := a.initialize("Fix the stock warning on the dashboard", "dashboard")
	before := packFiles(init)
	if len(before) > 2 {
		t.Fatalf("pack.maxFiles 2 gave %d files", len(before))
	}
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": "src/app/orders/orders-grid.component.ts"}), "PACK_SCOPE_VIOLATION")
	esc := a.turn("escalate", map[string]any{"need": "the orders grid component with its ag-Grid columnDefs and cell renderer"})
	mustAllow(t, esc)
	after := packFiles(esc)
	for _, f := range before {
		if !slices.Contains(after, f) {
			t.Errorf("escalate dropped %s", f)
		}
	}
	if !slices.Contains(after, "src/app/orders/orders-grid.component.ts") {
		t.Fatalf("escalate did not add the grid: %v", after)
	}
	if esc.ContextPack["hash"] == init.ContextPack["hash"] || envelopeOf(esc)["contextPackHash"] != esc.ContextPack["hash"] {
		t.Errorf("pack not re-hashed or envelope not updated")
	}
	added, _ := esc.Result["added"].(map[string]any)
	if files, _ := added["files"].([]any); len(files) == 0 {
		t.Errorf("result.added.files is empty")
	}
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": "src/app/orders/orders-grid.component.ts"}))
	// A plan built against the old pack hash is stale.
	mustDeny(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}), "PLAN_STALE_PACK")
}

// TestRawStdio speaks newline-delimited JSON-RPC to the binary directly.
func TestRawStdio(t *testing.T) {
	send, lines := rawStdio(t, newWorkspace(t))
	call := func(msg string) map[string]any {
		t.Helper()
		send(msg)
		done := make(chan bool, 1)
		go func() { done <- lines.Scan() }()
		select {
		case ok := <-done:
			if !ok {
				t.Fatalf("server closed stdout: %v", lines.Err())
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("no answer to %s", msg)
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("not one JSON object per line: %q", lines.Text())
		}
		return m
	}
	init := call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if v := init["result"].(map[string]any)["protocolVersion"]; v != "2025-11-25" {
		t.Fatalf("negotiated %v, want 2025-11-25", v)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	list := call(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	tools := list["result"].(map[string]any)["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "controller_turn" {
		t.Fatalf("tools = %v", tools)
	}
	schema, _ := json.Marshal(tools[0].(map[string]any)["inputSchema"])
	if strings.Contains(string(schema), ":true") {
		t.Errorf("input schema has a boolean true property, which the TypeScript client rejects: %s", schema)
	}
	res := call(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"escalate"}}}`)
	r := res["result"].(map[string]any)
	if r["isError"] == true {
		t.Errorf("a denial must not be isError")
	}
	sc := r["structuredContent"].(map[string]any)
	text := r["content"].([]any)[0].(map[string]any)["text"].(string)
	var fromText map[string]any
	must(t, json.Unmarshal([]byte(text), &fromText))
	if sc["state"] != "UNINITIALIZED" || fromText["state"] != "UNINITIALIZED" || len(sc["denials"].([]any)) == 0 {
		t.Errorf("structured %v / text %v", sc["state"], fromText["state"])
	}
	bad := call(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"other_tool","arguments":{}}}`)
	if bad["error"] == nil {
		t.Errorf("an unknown tool must be a JSON-RPC error, got %v", bad)
	}
	// A line that is no JSON-RPC message is answered with an error; the
	// session goes on.
	garbage := call(`{"jsonrpc":"2.0","id":6,"method":"tools/call",`)
	if e, _ := garbage["error"].(map[string]any); e == nil || e["code"] != float64(-32700) || garbage["id"] != nil {
		t.Errorf("a malformed line got %v, want a -32700 error with a null id", garbage)
	}
	// So is a message past the transport's 16 MB line limit, which is
	// dropped as it arrives.
	huge := call(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"write_scratch_file","args":{"relativePath":"a.md","content":"` +
		strings.Repeat("x", 17<<20) + `"}}}}`)
	if e, _ := huge["error"].(map[string]any); e == nil || e["code"] != float64(-32600) || huge["id"] != float64(7) {
		t.Errorf("a 17 MB line got %v, want a -32600 error for id 7", huge)
	}
	// The TypeScript SDK writes the id last; the answer still names it.
	hugeLast := call(`{"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"write_scratch_file","args":{"relativePath":"a.md","content":"` +
		strings.Repeat("x", 17<<20) + `"}}},"jsonrpc":"2.0","id":"ts-9"}`)
	if hugeLast["id"] != "ts-9" {
		t.Errorf("a 17 MB line ending with its id got %v, want the error for id ts-9", hugeLast)
	}
	// A batch, which 2025-06-18 and later forbid, is one more bad line, not
	// the end of the session.
	batch := call(`[{"jsonrpc":"2.0","id":8,"method":"ping"}]`)
	if e, _ := batch["error"].(map[string]any); e == nil || e["code"] != float64(-32600) {
		t.Errorf("a batch on 2025-11-25 got %v, want a -32600 error", batch)
	}
	ping := call(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	if ping["error"] != nil {
		t.Errorf("ping: %v", ping)
	}
}

// TestAnsweredIDReused: a client may send the id of a request already
// answered again the moment the answer arrives (the SDK allows it), and is
// answered, never refused as still in use.
func TestAnsweredIDReused(t *testing.T) {
	send, lines := rawStdio(t, newWorkspace(t))
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if !lines.Scan() {
		t.Fatal(lines.Err())
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	refused := 0
	for range 2000 {
		send(`{"jsonrpc":"2.0","id":9,"method":"ping"}`)
		if !lines.Scan() {
			t.Fatal(lines.Err())
		}
		if answer := lines.Text(); answer != `{"jsonrpc":"2.0","id":9,"result":{}}` {
			refused++
			if refused == 1 {
				t.Errorf("a ping reusing an answered id got %s", answer)
			}
		}
	}
	if refused > 0 {
		t.Errorf("%d of 2000 pings reusing an answered id were refused", refused)
	}
}

// TestPolicyErrorFailsClosed: a bundle whose decision is undefined denies
// every turn with POLICY_ERROR; nothing is allowed.
func TestPolicyErrorFailsClosed(t *testing.T) {
	ws := newWorkspace(t)
	bundle := t.TempDir()
	must(t, os.WriteFile(filepath.Join(bundle, "broken.rego"), []byte("package mcpc.main\n\nimport rego.v1\n\ndecision := d if {\n\td := {\"allow\": true}\n\tinput.never_set\n}\n"), 0o644))
	a := startServer(t, ws, "--bundle", bundle)
	r := a.turn("initialize_work", nil, "originalPrompt", "anything")
	mustDeny(t, r, "POLICY_ERROR")
	if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work")); err == nil {
		t.Errorf("a failed policy still created a work")
	}
	// A bundle that does not load (or does not exist) is also fail closed:
	// the server runs and denies every turn until a bundle loads.
	bad := t.TempDir()
	must(t, os.WriteFile(filepath.Join(bad, "x.rego"), []byte("package mcpc.main\ndecision := {"), 0o644))
	for _, b := range []string{bad, filepath.Join(bad, "missing.tar.gz")} {
		s := startServer(t, ws, "--bundle", b)
		r := s.turn("initialize_work", nil, "originalPrompt", "anything")
		mustDeny(t, r, "POLICY_ERROR")
		if !strings.Contains(r.Denials[0].Message, "bundle") {
			t.Errorf("the denial does not say the bundle is missing: %s", r.Denials[0].Message)
		}
	}
}

// TestBatchOnOlderProtocol: a client that negotiated 2025-03-26 may batch.
// A member that is no valid request is answered with its error in its
// place in the batch's answer, and the other members run.
func TestBatchOnOlderProtocol(t *testing.T) {
	send, lines := rawStdio(t, newWorkspace(t), "--no-warm")
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"old","version":"1"}}}`)
	if !lines.Scan() || !strings.Contains(lines.Text(), `"protocolVersion":"2025-03-26"`) {
		t.Fatalf("initialize: %s", lines.Text())
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":null,"method":"ping"},` +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"escalate"}}}]`)
	if !lines.Scan() {
		t.Fatalf("no answer to the batch: %v", lines.Err())
	}
	var answers []map[string]any
	if err := json.Unmarshal(lines.Bytes(), &answers); err != nil || len(answers) != 3 {
		t.Fatalf("batch answer %s (%v), want an array of 3", lines.Text(), err)
	}
	if answers[0]["id"] != float64(2) || answers[0]["result"] == nil {
		t.Errorf("ping's answer %v", answers[0])
	}
	if e, _ := answers[1]["error"].(map[string]any); e == nil || e["code"] != float64(-32600) || answers[1]["id"] != nil {
		t.Errorf("the null-id member's answer %v, want -32600 with a null id", answers[1])
	}
	sc, _ := answers[2]["result"].(map[string]any)["structuredContent"].(map[string]any)
	if answers[2]["id"] != float64(3) || sc["state"] != "UNINITIALIZED" {
		t.Errorf("the turn's answer %v", answers[2])
	}
}
