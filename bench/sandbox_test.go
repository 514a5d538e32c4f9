package bench

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/mcp"
)

// BenchmarkSandboxTurn is one run_sandboxed_code turn in process: the goja
// sandbox's start-up and a trivial async IIFE, the decision over its
// result's shape, the artifact and the decision record. The sandbox alone
// is internal/jsrun's BenchmarkStartup.
func BenchmarkSandboxTurn(b *testing.B) {
	a, init := started(b)
	plan := demo.Plan(init.PlanGraphSchema["envelope"].(map[string]any), true)
	mustTurn(b, a, map[string]any{"verb": "submit_execution_plan", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planGraph": plan}})
	req := map[string]any{"verb": "run_sandboxed_code", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planNodeId": "change-alert",
			"code":          `(async () => ({count: inputs.files.filter(f => f.endsWith(".ts")).length}))()`,
			"inputs":        map[string]any{"files": []string{"a.ts", "b.html", "c.ts"}},
			"expectedShape": map[string]any{"count": "number"}}}
	loopTurns(b, a, req)
}

// BenchmarkStdioSandboxTurn is a run_sandboxed_code turn against the real
// binary over stdio, as an agent sees it: the script runs in a process of
// its own started from the mcpc executable (its start-up is most of the
// figure).
func BenchmarkStdioSandboxTurn(b *testing.B) {
	bin, ws := stdioSetup(b)
	ctx := context.Background()
	c, err := mcp.Dial(ctx, exec.Command(bin, "serve", "--workspace", ws, "--no-warm"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	init, err := c.Turn(ctx, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt, "args": map[string]any{"lexemes": []string{"adp-alert"}}})
	if err != nil || len(init.Denials) > 0 {
		b.Fatal(err, init.DenyReasons)
	}
	plan := demo.Plan(init.PlanGraphSchema["envelope"].(map[string]any), true)
	if r, err := c.Turn(ctx, map[string]any{"verb": "submit_execution_plan", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planGraph": plan}}); err != nil || len(r.Denials) > 0 {
		b.Fatal(err, r.DenyReasons)
	}
	req := map[string]any{"verb": "run_sandboxed_code", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planNodeId": "change-alert",
			"code":   `(async () => ({count: inputs.files.filter(f => f.endsWith(".ts")).length}))()`,
			"inputs": map[string]any{"files": []string{"a.ts", "b.html", "c.ts"}}}}
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		r, err := c.Turn(ctx, req)
		lat = append(lat, time.Since(start))
		if err != nil || len(r.Denials) > 0 {
			b.Fatal(err, r.DenyReasons)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}
