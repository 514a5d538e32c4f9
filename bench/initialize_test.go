package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
)

// initializeLoop measures initialize_work on ws: index refresh (nothing
// changed after the first turn), ranking, the secret scan of every
// candidate, the pack decision and the new work's records.
func initializeLoop(b *testing.B, ws, prompt string, lexemes []string, wantFiles int) {
	b.Helper()
	a, err := app.Open(context.Background(), app.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	a.Config.Budget.MaxTokens, a.Config.Budget.WorkMaxTokens = 1<<40, 1<<42
	req := map[string]any{"verb": "initialize_work", "originalPrompt": prompt,
		"args": map[string]any{"lexemes": lexemes}}
	first := mustTurn(b, a, req) // warm: the first refresh and the detector's rule set
	var files []string
	raw, _ := json.Marshal(first.ContextPack["files"])
	if err := json.Unmarshal(raw, &files); err != nil || len(files) < wantFiles {
		b.Fatalf("the pack holds %d files, want at least %d: %v %v", len(files), wantFiles, files, first.ContextPack["excluded"])
	}
	loopTurns(b, a, req)
}

// BenchmarkInitializeWorkExample is initialize_work on the example
// workspace.
func BenchmarkInitializeWorkExample(b *testing.B) {
	initializeLoop(b, example(b), demo.Prompt, []string{"adp-alert", "dashboard"}, 5)
}

// BenchmarkInitializeWorkPack200 is initialize_work building a 200-file
// pack: the example plus 200 components of about 6 KB that all rank for
// the task.
func BenchmarkInitializeWorkPack200(b *testing.B) {
	ws := example(b)
	for i := range 200 {
		var src strings.Builder
		fmt.Fprintf(&src, "// ordersgrid column %d for the dashboard\nimport { Component } from '@angular/core';\n\n", i)
		for j := 0; src.Len() < 6<<10; j++ {
			fmt.Fprintf(&src, "@Component({ selector: 'orders-grid-cell-%d-%d', template: '<span class=\"cell\">{{ value }}</span>' })\n", i, j)
			fmt.Fprintf(&src, "export class OrdersGridCell%dPart%d {\n  value = '';\n  format(v: number): string { return this.value = v.toFixed(2); }\n}\n\n", i, j)
		}
		name := filepath.Join(ws, "src", "app", "orders", "grid", fmt.Sprintf("cell-%03d.component.ts", i))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(src.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cfgFile := filepath.Join(ws, ".ai", "config", "repo.json")
	raw, err := os.ReadFile(cfgFile)
	if err != nil {
		b.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(raw, &cfg); err != nil {
		b.Fatal(err)
	}
	cfg["pack"] = map[string]any{"maxFiles": 220, "maxBytes": 4 << 20}
	raw, _ = json.Marshal(cfg)
	if err := os.WriteFile(cfgFile, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	initializeLoop(b, ws, "Format the orders grid cell values", []string{"OrdersGridCell", "orders-grid-cell"}, 200)
}

// BenchmarkInitializeWorkTree is initialize_work on the real tree named by
// MCPC_BENCH_TREE (e.g. a 5,000-file application, or ten copies of it;
// never committed), indexed beforehand with `mcpc index`. first-turn-ms is
// what a new serve process pays: opening the app (and the index) and its
// first turn; ns/op is a warm turn. open-cpu-ms and first-turn-cpu-ms split
// that first turn's CPU time between app.Open (the index load and the
// sandbox's start) and the turn itself, since wall time on a shared machine
// says little about which of them grew with the tree.
func BenchmarkInitializeWorkTree(b *testing.B) {
	ws := os.Getenv("MCPC_BENCH_TREE")
	if ws == "" {
		b.Skip("MCPC_BENCH_TREE not set")
	}
	t0, cpu0 := time.Now(), processCPU()
	a, err := app.Open(context.Background(), app.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	opened := processCPU()
	a.Config.Budget.MaxTokens, a.Config.Budget.WorkMaxTokens = 1<<40, 1<<42
	req := map[string]any{"verb": "initialize_work", "originalPrompt": "Show the item's access status badge on the search result",
		"args": map[string]any{"lexemes": []string{"access status"}}}
	mustTurn(b, a, req)
	first, firstCPU := time.Since(t0), processCPU()-opened
	loopTurns(b, a, req)
	b.ReportMetric(float64(first.Milliseconds()), "first-turn-ms")
	b.ReportMetric(float64((opened - cpu0).Milliseconds()), "open-cpu-ms")
	b.ReportMetric(float64(firstCPU.Milliseconds()), "first-turn-cpu-ms")
}
