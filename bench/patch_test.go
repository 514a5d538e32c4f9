package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// patchNodes is how many change nodes of the 2,000-line template one work's
// plan has: each is patched once, then a new work takes over (off the clock).
const patchNodes = 100

// bigTemplate is a 2,000-line Angular template (about 90 KB): control flow,
// bindings and an adp-alert every tenth line.
func bigTemplate() string {
	var b strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&b, "@if (rows[%d]) {\n", i)
		fmt.Fprintf(&b, "  <section class=\"row\" [class.active]=\"active === %d\">\n", i)
		fmt.Fprintf(&b, "    <adp-alert type=\"warning\" [message]=\"messages[%d]\" (closed)=\"hide(%d)\"></adp-alert>\n", i, i)
		b.WriteString("    <p>{{ row.title }} <span>{{ row.total | currency }}</span></p>\n")
		b.WriteString("    @for (item of row.items; track item.id) {\n")
		b.WriteString("      <app-item [item]=\"item\"></app-item>\n")
		b.WriteString("    }\n")
		b.WriteString("  </section>\n")
		b.WriteString("}\n")
		fmt.Fprintf(&b, "<!-- row %d -->\n", i)
	}
	return b.String()
}

// patchWork starts a work on the big template with a plan of patchNodes
// change nodes of it (one validate node maps them all), and reads it.
func patchWork(b *testing.B, a *app.App) *protocol.TurnResponse {
	init := mustTurn(b, a, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
	env, _ := init.PlanGraphSchema["envelope"].(map[string]any)
	plan := demo.Plan(env, true)
	var nodes []any
	var ids []string
	for i := 0; i < patchNodes; i++ {
		change := demo.Plan(env, true)["nodes"].([]any)[0].(map[string]any)
		change["nodeId"] = fmt.Sprintf("change-%03d", i)
		ids = append(ids, change["nodeId"].(string))
		nodes = append(nodes, change)
	}
	validate := plan["nodes"].([]any)[1].(map[string]any)
	validate["dependsOn"], validate["mapsToNodeIds"] = ids, ids
	plan["nodes"] = append(nodes, validate)
	ids = append(ids, "")
	mustTurn(b, a, map[string]any{"verb": "submit_execution_plan", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planGraph": plan}})
	mustTurn(b, a, map[string]any{"verb": "read_file_lines", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 5}})
	return init
}

// benchPatchTurn measures whole apply_code_patch turns on the 2,000-line
// template: dry run, decision, the edits again, hashes, atomic write, intent,
// artifacts, trace ledger append and decision record. edits(i) gives the
// i-th patch's edits; consecutive patches need no read in between.
func benchPatchTurn(b *testing.B, edits func(i int) []any) {
	ws := example(b)
	if err := os.WriteFile(filepath.Join(ws, filepath.FromSlash(demo.Target)), []byte(bigTemplate()), 0o644); err != nil {
		b.Fatal(err)
	}
	a, err := app.Open(context.Background(), app.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	a.Config.Budget.MaxTokens, a.Config.Budget.WorkMaxTokens = 1<<40, 1<<42
	init := patchWork(b, a)
	b.ReportAllocs()
	b.ResetTimer()
	var cpu int64 // CPU time of the patch turns; the wall time is mostly fsync and other tenants
	for i := 0; b.Loop(); i++ {
		if i > 0 && i%patchNodes == 0 {
			b.StopTimer()
			init = patchWork(b, a)
			b.StartTimer()
		}
		start := cpuTime()
		r := mustTurn(b, a, map[string]any{"verb": "apply_code_patch", "workId": init.WorkID, "agentId": init.AgentID,
			"args": map[string]any{"planNodeId": fmt.Sprintf("change-%03d", i%patchNodes), "targetFile": demo.Target, "edits": edits(i)}})
		cpu += cpuTime() - start
		if r.Result["applied"] != true {
			b.Fatalf("patch %d: %v", i, r.Result)
		}
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkPatchTurnReplaceText2000Lines: one replace_text edit, toggled
// back and forth.
func BenchmarkPatchTurnReplaceText2000Lines(b *testing.B) {
	benchPatchTurn(b, func(i int) []any {
		from, to := "messages[150]", "notes[150]"
		if i%2 == 1 {
			from, to = to, from
		}
		return []any{map[string]any{"op": "replace_text", "find": from, "replace": to}}
	})
}

// BenchmarkPatchTurnRewriteTemplateTag2000Lines: the rewrite_template_tag
// codemod over 200 elements, toggled between adp-alert and sdf-alert.
func BenchmarkPatchTurnRewriteTemplateTag2000Lines(b *testing.B) {
	benchPatchTurn(b, func(i int) []any {
		from, to := "adp-alert", "sdf-alert"
		if i%2 == 1 {
			from, to = to, from
		}
		return []any{map[string]any{"op": "codemod", "codemod": "rewrite_template_tag", "params": map[string]any{"fromTag": from, "toTag": to}}}
	})
}
