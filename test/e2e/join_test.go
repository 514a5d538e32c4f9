package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestSecondProcessJoins: a second mcpc process (another MCP client) joins a
// work by workId alone and shares its pack, plan, state and progress.
func TestSecondProcessJoins(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	env := envelopeOf(init)

	b := startServer(t, ws)
	b.work = a.work
	joined := b.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, joined)
	if joined.AgentID == "" || joined.AgentID == a.id {
		t.Fatalf("the joining process got agentId %q (first agent %q)", joined.AgentID, a.id)
	}
	if joined.WorkID != a.work || joined.State != "PLANNING" || joined.RunSessionID != init.RunSessionID {
		t.Fatalf("joined view: work %s state %s run %s", joined.WorkID, joined.State, joined.RunSessionID)
	}
	b.id = joined.AgentID

	// The sub-agent submits the plan with its own agentId in the envelope.
	plan := demo.Plan(env, true)
	plan["agentId"] = b.id
	mustAllow(t, b.turn("submit_execution_plan", map[string]any{"planGraph": plan}))

	// The first process sees the accepted plan and progress.
	seen := a.turn("search_codebase_text", map[string]any{"pattern": "sdf"})
	mustAllow(t, seen)
	if seen.State != "PLAN_ACCEPTED" || seen.Progress.TotalNodes != 2 {
		t.Fatalf("first process sees state %s progress %+v", seen.State, seen.Progress)
	}
	// Budgets are per agent.
	if seen.BudgetStatus.UsedTokens >= joined.BudgetStatus.UsedTokens+init.BudgetStatus.UsedTokens+10000 {
		t.Errorf("budget looks shared: %+v", seen.BudgetStatus)
	}
	if b.lastTx.BudgetStatus.UsedTokens == seen.BudgetStatus.UsedTokens {
		t.Errorf("two agents report the same used tokens %d", seen.BudgetStatus.UsedTokens)
	}

	// A client-supplied agentId is kept.
	c := startServer(t, ws)
	c.work, c.id = a.work, "reviewer-7"
	r := c.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	mustAllow(t, r)
	if r.AgentID != "reviewer-7" {
		t.Errorf("agentId %q not kept, got %q", "reviewer-7", r.AgentID)
	}

	// An unknown workId is WORK_NOT_FOUND and creates nothing.
	d := startServer(t, ws)
	d.work = "work-doesnotexist"
	mustDeny(t, d.turn("read_file_lines", map[string]any{"targetFile": demo.Target}), "WORK_NOT_FOUND")
	if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work", "work-doesnotexist")); err == nil {
		t.Errorf("an unknown workId created a work folder")
	}
}
