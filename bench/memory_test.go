package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
)

// deniedTurns runs a read of a file outside the pack (PACK_SCOPE_VIOLATION)
// b.N times and reports the p50 and p99 of the turn. Each turn is followed
// by a short pause, as an agent's thinking gives, in which the learner's
// goroutine writes the ledger line; the pause is off the clock.
func deniedTurns(b *testing.B, noLearning bool) {
	ws := example(b)
	a, err := app.Open(context.Background(), app.Options{Workspace: ws, NoLearning: noLearning})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	a.Config.Budget.MaxTokens, a.Config.Budget.WorkMaxTokens, a.Config.Budget.SessionMaxTokens = 1<<40, 1<<42, 1<<42
	a.Config.Memory.FrictionLedgerMaxBytes = 1 << 20 // rotation is part of the cost
	init := turn(b, a, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
	raw, _ := json.Marshal(map[string]any{"verb": "read_file_lines", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"targetFile": "src/app/dashboard/outside.ts"}})
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		r, err := a.Controller.Turn(context.Background(), raw)
		lat = append(lat, time.Since(start))
		if err != nil || len(r.Denials) == 0 {
			b.Fatal(err, r)
		}
		b.StopTimer()
		time.Sleep(2 * time.Millisecond)
		b.StartTimer()
	}
	reportLatency(b, lat)
}

// BenchmarkDeniedTurn is a denied read turn with the friction ledger on
// (what serve runs).
func BenchmarkDeniedTurn(b *testing.B) { deniedTurns(b, false) }

// BenchmarkDeniedTurnNoLedger is the same turn with the learner off: the
// difference to BenchmarkDeniedTurn is what the ledger costs a denied turn.
func BenchmarkDeniedTurnNoLedger(b *testing.B) { deniedTurns(b, true) }

// traceTurns runs trace_symbol_graph on the demo target b.N times with
// records.json holding n active few-shot records (half of them in the
// target's domain), and reports the turn's p50 and p99: what reading the
// records and asking lib/memory for the few-shots costs a read turn.
func traceTurns(b *testing.B, n int) {
	ws := example(b)
	if n > 0 {
		records := make([]map[string]any, n)
		for i := range records {
			anchor := "anchor:src/app/dashboard"
			if i%2 == 1 {
				anchor = fmt.Sprintf("anchor:src/app/area%d", i)
			}
			records[i] = map[string]any{
				"id": fmt.Sprintf("friction-%06d", i), "trigger": "rejection_pattern", "enforcementType": "few_shot", "state": "approved",
				"createdAt": "2026-11-20T00:00:00Z", "domainAnchorIds": []string{anchor}, "rejectionCodes": []string{"PACK_SCOPE_VIOLATION"},
				"fewShot": map[string]any{"instruction": "read only pack files", "before": "read_file_lines src/app/x.ts", "whyWrong": "scope"},
			}
		}
		raw, _ := json.Marshal(records)
		if err := os.MkdirAll(filepath.Join(ws, ".ai", "memory"), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(ws, ".ai", "memory", "records.json"), raw, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	a, err := app.Open(context.Background(), app.Options{Workspace: ws, NoLearning: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	a.Config.Budget.MaxTokens, a.Config.Budget.WorkMaxTokens, a.Config.Budget.SessionMaxTokens = 1<<40, 1<<42, 1<<42
	init := turn(b, a, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
	raw, _ := json.Marshal(map[string]any{"verb": "trace_symbol_graph", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"targetFile": demo.Target}})
	var lat []time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		r, err := a.Controller.Turn(context.Background(), raw)
		lat = append(lat, time.Since(start))
		if err != nil || len(r.Denials) > 0 {
			b.Fatal(err, r)
		}
		if shots, _ := r.Result["fewShots"].([]map[string]any); n > 0 && len(shots) == 0 {
			b.Fatalf("no few-shots among %d records: %v", n, r.Result)
		}
	}
	reportLatency(b, lat)
}

// BenchmarkTraceFewShots is trace_symbol_graph with no memory records and
// with 200 and 2,000 (memory.MaxRecords) active few-shots.
func BenchmarkTraceFewShots(b *testing.B) {
	for _, n := range []int{0, 200, 2000} {
		b.Run(fmt.Sprintf("records=%d", n), func(b *testing.B) { traceTurns(b, n) })
	}
}
