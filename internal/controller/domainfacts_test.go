package controller

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

// lockProbe is a DomainFacts that, on every call, checks whether the
// store's write lock is free: it begins a write transaction of its own and
// waits a moment for it. A call made inside a turn's write transaction
// cannot get one until that transaction ends, which waits for the call.
type lockProbe struct {
	st    *store.Store
	mu    sync.Mutex
	calls []probeCall
}

type probeCall struct {
	files     []string
	underLock bool
}

func (p *lockProbe) PolicyFacts(ctx context.Context, files []string) (*graph.PolicyFacts, error) {
	done := make(chan error, 1)
	go func() { done <- p.st.Update(context.Background(), func(*store.Tx) error { return nil }) }()
	under := false
	select {
	case err := <-done:
		under = err != nil
	case <-time.After(2 * time.Second):
		under = true
	}
	p.mu.Lock()
	p.calls = append(p.calls, probeCall{files: slices.Clone(files), underLock: under})
	p.mu.Unlock()
	tags := map[string][]string{}
	for _, f := range files {
		tags[f] = []string{"adp-alert"}
	}
	return &graph.PolicyFacts{FileTags: tags}, nil
}

func (p *lockProbe) take() []probeCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.calls
	p.calls = nil
	return out
}

// fixedIndex ranks the same files for every prompt.
type fixedIndex struct{ files []string }

func (x fixedIndex) Refresh(context.Context) error { return nil }
func (x fixedIndex) Rank(context.Context, RankQuery) ([]Candidate, error) {
	var out []Candidate
	for i, f := range x.files {
		out = append(out, Candidate{File: f, Score: float64(len(x.files) - i), Lanes: []string{"lexical"}})
	}
	return out, nil
}
func (x fixedIndex) Search(context.Context, string, map[string]bool, int) ([]Candidate, error) {
	return nil, nil
}
func (fixedIndex) Symbols(string) []Symbol     { return nil }
func (fixedIndex) FileSymbols(string) []Symbol { return nil }
func (fixedIndex) Neighbors(string) []Edge     { return nil }
func (fixedIndex) Usages([]string) []Usage     { return nil }

// TestGraphFactsOutsideTheLock: initialize_work and submit_execution_plan
// read the knowledge graph's facts before the write transaction, and the
// transaction uses what was read instead of asking the graph again.
func TestGraphFactsOutsideTheLock(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	files := []string{"src/app/a.component.html", "src/app/a.component.ts"}
	for _, f := range files {
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(os.MkdirAll(filepath.Join(ws, filepath.Dir(f)), 0o755))
		must(os.WriteFile(filepath.Join(ws, f), []byte("<adp-alert></adp-alert>\n"), 0o644))
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	eng, err := engine.New(ctx, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	probe := &lockProbe{st: st}
	c, err := New(Options{Workspace: ws, Store: st, Engine: eng, Index: fixedIndex{files: files}, Domain: probe,
		Now: func() time.Time { return time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	turn := func(req map[string]any) *protocol.TurnResponse {
		t.Helper()
		raw, _ := json.Marshal(req)
		r, err := c.Turn(ctx, raw)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	check := func(note string, wantCalls int) {
		t.Helper()
		calls := probe.take()
		if len(calls) != wantCalls {
			t.Fatalf("%s: %d graph reads %+v, want %d", note, len(calls), calls, wantCalls)
		}
		for _, call := range calls {
			if call.underLock {
				t.Fatalf("%s: the graph was read under the store's write lock: %+v", note, call)
			}
		}
	}

	r := turn(map[string]any{"verb": "initialize_work", "originalPrompt": "Change the alert on page a", "args": map[string]any{"lexemes": []string{"alert"}}})
	if len(r.DenyReasons) > 0 {
		t.Fatalf("initialize_work denied: %v", r.DenyReasons)
	}
	check("initialize_work", 1) // no proof chains: one read, for the ranked files

	plan := map[string]any{"nodes": []any{map[string]any{"nodeId": "change-1", "kind": "change", "targetFile": files[0]}}}
	turn(map[string]any{"verb": "submit_execution_plan", "workId": r.WorkID, "agentId": r.AgentID, "args": map[string]any{"planGraph": plan}})
	check("submit_execution_plan", 1)
}

// TestGraphFactsFor: prefetched facts serve the transaction only for the
// very files they were read for.
func TestGraphFactsFor(t *testing.T) {
	probe := &countingFacts{}
	c := &Controller{domain: probe}
	tr := &turn{}
	c.prefetchGraphFacts(context.Background(), tr, []string{"a", "b"})
	c.prefetchGraphFacts(context.Background(), tr, []string{"a", "b"})
	if probe.n != 1 {
		t.Fatalf("the same files read twice: %d", probe.n)
	}
	if g := c.graphFactsFor(context.Background(), tr, []string{"a", "b"}); g != tr.graph || probe.n != 1 {
		t.Fatalf("the transaction must reuse the prefetched facts (%d reads)", probe.n)
	}
	if g := c.graphFactsFor(context.Background(), tr, []string{"a"}); g == tr.graph || probe.n != 2 {
		t.Fatalf("other files must be read again (%d reads)", probe.n)
	}
}

type countingFacts struct{ n int }

func (f *countingFacts) PolicyFacts(context.Context, []string) (*graph.PolicyFacts, error) {
	f.n++
	return &graph.PolicyFacts{}, nil
}
