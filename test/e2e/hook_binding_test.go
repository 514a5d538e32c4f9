package e2e

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// mcpResult is an answer as the MCP result a host hands its hook: the
// answer as text content and as structuredContent.
func mcpResult(t *testing.T, r *protocol.TurnResponse) map[string]any {
	t.Helper()
	raw, err := json.Marshal(r)
	must(t, err)
	var structured map[string]any
	must(t, json.Unmarshal(raw, &structured))
	return map[string]any{"content": []any{map[string]any{"type": "text", "text": string(raw)}}, "structuredContent": structured}
}

// TestHookSessionBinding runs two works on one workspace, each driven by
// its own session: with no binding, hook events are ambiguous and denied
// (mcpc's own files too); a session whose agent got an allowed
// controller_turn answer is bound to that work (Claude Code's PostToolUse of
// mcp__mcpc__controller_turn, Cursor's afterMCPExecution) and judged
// against its pack and plan; a denied answer binds nothing; MCPC_WORK_ID
// still wins.
func TestHookSessionBinding(t *testing.T) {
	ws := newWorkspace(t)
	root, err := filepath.EvalSymlinks(ws)
	must(t, err)
	a1, a2 := startServer(t, ws), startServer(t, ws)
	init1 := a1.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	init2 := a2.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	if a1.work == a2.work {
		t.Fatalf("both servers share work %s", a1.work)
	}
	const sessionA, sessionB, sessionC = "aaaaaaaa-0000-4000-8000-000000000001", "bbbbbbbb-0000-4000-8000-000000000002", "cccccccc-0000-4000-8000-000000000003"
	claude := func(session, name, file string, env ...string) map[string]any {
		t.Helper()
		return runHook(t, ws, "claude-code", withFields(t, hookEvent(t, name, root, file, ""), "session_id", session), env...)
	}

	// Two active works and no binding: denied, whatever the tool.
	wantClaude(t, claude(sessionA, "claude-read", demo.Target), "deny", "HOOK_WORK_AMBIGUOUS")
	got := claude(sessionA, "claude-write", ".mcp.json")
	wantClaude(t, got, "deny", "HOOK_WORK_AMBIGUOUS")
	wantClaude(t, got, "deny", "HOOK_OWN_FILE")

	// Session A's agent started work 1: its PostToolUse binds session A.
	if got := runHook(t, ws, "claude-code", withFields(t, hookEvent(t, "claude-mcp-post", root, "", ""), "session_id", sessionA, "tool_response", mcpResult(t, init1))); len(got) != 0 {
		t.Errorf("PostToolUse of controller_turn answered %v, want {}", got)
	}
	wantClaude(t, claude(sessionA, "claude-read", demo.Target), "allow", "")
	wantClaude(t, claude(sessionA, "claude-edit", demo.Target), "deny", "HOOK_EDIT_NOT_OWNED")
	wantClaude(t, claude(sessionB, "claude-read", demo.Target), "deny", "HOOK_WORK_AMBIGUOUS")

	// Session B is a Cursor conversation on work 2 (Cursor hands the MCP
	// result as a JSON string).
	result2, err := json.Marshal(mcpResult(t, init2))
	must(t, err)
	runHook(t, ws, "cursor", withFields(t, hookEvent(t, "cursor-after-mcp", root, "", ""), "conversation_id", sessionB, "result_json", string(result2)))
	cursorB := func(name, file string) map[string]any {
		t.Helper()
		return runHook(t, ws, "cursor", withFields(t, hookEvent(t, name, root, file, ""), "conversation_id", sessionB))
	}
	wantCursor(t, cursorB("cursor-pretool-read", demo.Target), "allow", "")

	// Work 1's plan is accepted: session A may edit the target, session B
	// (work 2, no plan) may not.
	mustAllow(t, a1.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init1), true)}))
	wantClaude(t, claude(sessionA, "claude-edit", demo.Target), "allow", "")
	wantCursor(t, cursorB("cursor-pretool-strreplace", demo.Target), "deny", "HOOK_EDIT_NOT_OWNED")
	if b := lastHookEvent(t, ws, a2.work); b.BoundVia != "session" || b.Tool != "StrReplace" {
		t.Errorf("work 2's last hook event = %+v, want session B's refused StrReplace", b)
	}

	// A denied answer binds nothing: session C's agent was refused on work 1.
	denied := a1.turn("escalate_context", map[string]any{}, "agentId", "agent-of-someone-else")
	if len(denied.Denials) == 0 {
		t.Fatalf("want a denied turn, got %+v", denied)
	}
	runHook(t, ws, "claude-code", withFields(t, hookEvent(t, "claude-mcp-post", root, "", ""), "session_id", sessionC, "tool_response", mcpResult(t, denied)))
	wantClaude(t, claude(sessionC, "claude-read", demo.Target), "deny", "HOOK_WORK_AMBIGUOUS")

	// mcpc works lists each work's bound sessions.
	out, err := runCLI(ws, "works")
	if err != nil {
		t.Fatalf("mcpc works: %v\n%s", err, out)
	}
	var works []struct {
		WorkID       string `json:"workId"`
		HookSessions []struct {
			Host    string `json:"host"`
			Session string `json:"session"`
		} `json:"hookSessions"`
	}
	must(t, json.Unmarshal([]byte(out), &works))
	bound := map[string]string{}
	for _, w := range works {
		for _, s := range w.HookSessions {
			bound[s.Host+" "+s.Session] = w.WorkID
		}
	}
	if want := map[string]string{"claude-code " + sessionA: a1.work, "cursor " + sessionB: a2.work}; !reflect.DeepEqual(bound, want) {
		t.Errorf("mcpc works lists sessions %v, want %v", bound, want)
	}

	// MCPC_WORK_ID wins over the session's binding.
	wantClaude(t, claude(sessionA, "claude-edit", demo.Target, "MCPC_WORK_ID="+a2.work), "deny", "HOOK_EDIT_NOT_OWNED")
}
