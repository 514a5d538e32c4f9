package e2e

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// TestConcurrentProcesses: several mcpc processes run turns on one work at
// the same time; every turn is answered, and decisions are numbered without
// gaps or duplicates in the shared store.
func TestConcurrentProcesses(t *testing.T) {
	ws := newWorkspace(t)
	lead := startServer(t, ws)
	lead.initialize(demo.Prompt, "adp-alert")
	const procs, turns = 3, 15
	agents := make([]*agent, procs)
	for i := range agents {
		agents[i] = startServer(t, ws)
		agents[i].work, agents[i].id = lead.work, fmt.Sprintf("sub-%d", i)
	}
	var wg sync.WaitGroup
	errs := make(chan string, procs*turns)
	for _, a := range agents {
		wg.Add(1)
		go func(a *agent) {
			defer wg.Done()
			for j := 0; j < turns; j++ {
				var args map[string]any
				verb := "read_file_lines"
				if j%3 == 2 {
					verb, args = "write_scratch_file", map[string]any{"relativePath": a.id + ".md", "content": fmt.Sprint(j)}
				} else {
					args = map[string]any{"targetFile": demo.Target}
				}
				req := map[string]any{"verb": verb, "workId": a.work, "agentId": a.id, "args": args}
				resp, err := a.c.Turn(t.Context(), req)
				if err != nil {
					errs <- err.Error()
					return
				}
				if len(resp.Denials) > 0 || resp.Result["error"] != nil {
					errs <- fmt.Sprint(resp.DenyReasons, resp.Result["error"])
				}
			}
		}(a)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	// The lead's next decision number accounts for every turn: 1 init + all.
	next := lead.turn("read_file_lines", map[string]any{"targetFile": demo.Target})
	want := fmt.Sprintf(".ai/tmp/work/%s/decisions/%06d.json", lead.work, 1+procs*turns+1)
	if next.TraceRef != want {
		t.Errorf("traceRef %s, want %s", next.TraceRef, want)
	}
}

// TestConcurrentTurnsInOneProcess: one client keeps many turns in flight on
// one mcpc process, whose workers then hold several store connections at
// once; every turn is answered and counted once.
func TestConcurrentTurnsInOneProcess(t *testing.T) {
	ws := newWorkspace(t)
	roomyBudget(t, ws)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	read := map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 2}
	// Every charge (a request, or answers not charged yet) is reported by
	// exactly one response: their sum is what the agent has used.
	var charged atomic.Int64
	count := func(r *protocol.TurnResponse) {
		charged.Add(int64(r.BudgetStatus.Charged.RequestTokens + r.BudgetStatus.Charged.AnswerTokens))
	}
	first := a.turn("read_file_lines", read)
	count(first)
	const inFlight, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan string, inFlight*each)
	for range inFlight {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				req := map[string]any{"verb": "read_file_lines", "workId": a.work, "agentId": a.id, "args": read}
				resp, err := a.c.Turn(t.Context(), req)
				if err != nil {
					errs <- err.Error()
					return
				}
				count(resp)
				if len(resp.Denials) > 0 || resp.Result["error"] != nil {
					errs <- fmt.Sprint(resp.DenyReasons, resp.Result["error"])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	next := a.turn("read_file_lines", read)
	count(next)
	if want := fmt.Sprintf(".ai/tmp/work/%s/decisions/%06d.json", a.work, 2+inFlight*each+1); next.TraceRef != want {
		t.Errorf("traceRef %s, want %s", next.TraceRef, want)
	}
	// The initialize_work request was charged before first.
	if want := int(charged.Load()) + init.BudgetStatus.Charged.RequestTokens; next.BudgetStatus.UsedTokens != want {
		t.Errorf("usedTokens %d, want %d (every turn's request and answer charged once)", next.BudgetStatus.UsedTokens, want)
	}
}
