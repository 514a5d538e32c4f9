package bench

import (
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
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
