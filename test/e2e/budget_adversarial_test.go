package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestBudgetResetThroughNewWorks: an agent over its budget starts new works
// in the same MCP session (stdio: the process), with the same or new
// agentIds and runSessionIds; the session's ceiling holds across them and
// initialize_work is refused once it is reached. Another session is not
// affected.
func TestBudgetResetThroughNewWorks(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"),
		[]byte(`{"budget": {"maxTokens": 8000, "thresholdPercent": 0.5, "sessionMaxTokens": 24000}}`), 0o644))
	a := startServer(t, ws)
	pad := strings.Repeat("y", 2400)
	sessionUsed, works, refused := 0, 0, false
	for works < 10 && !refused {
		// A fresh runSessionId and the same agentId each time: neither is the
		// agent's to reset the session with.
		r := a.turn("initialize_work", map[string]any{"lexemes": []string{"adp-alert"}},
			"originalPrompt", demo.Prompt, "workId", nil, "agentId", "agent-reset", "runSessionId", "run-"+strings.Repeat("x", works+1))
		if r.BudgetStatus.SessionUsedTokens < sessionUsed {
			t.Fatalf("a new work reset the session: used %d, was %d", r.BudgetStatus.SessionUsedTokens, sessionUsed)
		}
		sessionUsed = r.BudgetStatus.SessionUsedTokens
		if len(r.Denials) > 0 {
			mustDeny(t, r, "BUDGET_EXCEEDED")
			if r.Denials[0].Path != "session.usedTokens" || !strings.Contains(r.Denials[0].Message, "a new work does not reset it") {
				t.Errorf("refused for %s: %s", r.Denials[0].Path, r.Denials[0].Message)
			}
			for _, v := range r.Capabilities {
				if v == "initialize_work" {
					t.Errorf("a session over its ceiling is still offered initialize_work: %v", r.Capabilities)
				}
			}
			refused = true
			break
		}
		works++
		a.work, a.id = r.WorkID, r.AgentID
		// Spend this work's slice until the agent is blocked in it.
		for i := 0; i < 40; i++ {
			r = a.turn("write_scratch_file", map[string]any{"relativePath": "n.md", "content": pad})
			if r.BudgetStatus.Blocked {
				break
			}
		}
		if !r.BudgetStatus.Blocked {
			t.Fatalf("work %d: never blocked: %+v", works, r.BudgetStatus)
		}
		if r.BudgetStatus.SessionUsedTokens <= sessionUsed {
			t.Fatalf("work %d: the session was not charged: %+v", works, r.BudgetStatus)
		}
		sessionUsed = r.BudgetStatus.SessionUsedTokens
		a.work, a.id = "", ""
	}
	if !refused {
		t.Fatalf("%d new works in one session, none refused (session used %d)", works, sessionUsed)
	}
	t.Logf("%d works before initialize_work was refused; session used %d", works, sessionUsed)
	if works > 3 {
		t.Errorf("%d works before the session's ceiling of 12000 tokens held", works)
	}
	// A new agentId under a new runSessionId in the same session: refused too.
	r := a.turn("initialize_work", map[string]any{"lexemes": []string{"adp-alert"}},
		"originalPrompt", demo.Prompt, "agentId", "agent-other", "runSessionId", "run-fresh")
	mustDeny(t, r, "BUDGET_EXCEEDED")
	// Another MCP session (another process) has its own ceiling.
	b := startServer(t, ws)
	mustAllow(t, b.initialize(demo.Prompt, "adp-alert"))
}

// TestPaddedRequestCannotBlockOthers: a request padded up to the transport's
// limit under a new agentId is denied and charged one request's share; it
// blocks neither the work's other agents nor, alone, its sender; new
// agentIds past the work's pool get no slice, and the first agent works on.
func TestPaddedRequestCannotBlockOthers(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	flood := func(s *agent, agentID string) *agentResult {
		r := s.send(map[string]any{"workId": a.work, "agentId": agentID, "verb": "write_scratch_file",
			"args": map[string]any{"relativePath": "big.md", "content": strings.Repeat("x", 3<<20)}})
		return &agentResult{r.BudgetStatus.Charged.RequestTokens, r.BudgetStatus.Charged.RequestMaxTokens, r.BudgetStatus.Blocked, r.Denials[0].Code}
	}
	// From another MCP session, as a rogue sub-agent's client would.
	rogue := startServer(t, ws)
	first := flood(rogue, "rogue-1")
	if first.code != "REQUEST_TOO_LARGE" || first.charged != first.max || first.max != 12000 || first.blocked {
		t.Fatalf("a 3 MB request: %+v", first)
	}
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	// Repeated under one agentId, it blocks that agentId only.
	var last *agentResult
	for range 5 {
		last = flood(rogue, "rogue-1")
	}
	if !last.blocked {
		t.Errorf("six padded requests did not block their sender: %+v", last)
	}
	// Padded requests under new agentIds are only ever denied: they take no
	// slice from the work's pool.
	for i := 2; i <= 8; i++ {
		flood(rogue, "rogue-"+strings.Repeat("n", i))
	}
	r := rogue.send(map[string]any{"workId": a.work, "agentId": "rogue-reader", "verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target}})
	mustAllow(t, r)
	if r.BudgetStatus.WorkGrantedTokens != 200000 {
		t.Errorf("denied requests took slices: %+v", r.BudgetStatus)
	}
	// Allowed turns under new agentIds take slices until the pool (5: the
	// first agent and rogue-reader hold two) is spent; then new agentIds get
	// none, and the agents holding one go on.
	var refused bool
	for i := 1; i <= 4 && !refused; i++ {
		r := rogue.send(map[string]any{"workId": a.work, "agentId": "rogue-r" + strings.Repeat("n", i), "verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target}})
		if len(r.Denials) > 0 {
			mustDeny(t, r, "BUDGET_EXCEEDED")
			refused = strings.Contains(r.Denials[0].Message, "no slice")
		}
	}
	if !refused {
		t.Errorf("new agentIds kept getting slices past the work's pool")
	}
	r = a.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, r)
	if r.State != "PLANNING" || r.BudgetStatus.Blocked {
		t.Errorf("the first agent is in %s after the flood (budget %+v)", r.State, r.BudgetStatus)
	}
}

type agentResult struct {
	charged, max int
	blocked      bool
	code         string
}
