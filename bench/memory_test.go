package bench

import (
	"context"
	"encoding/json"
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
