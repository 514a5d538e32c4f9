package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/store"
)

// seeded opens a store with works works, each with one agent, and events
// observed events spread over them.
func seeded(tb testing.TB, works, events int) *store.Store {
	tb.Helper()
	st, err := store.Open(filepath.Join(tb.TempDir(), "mcpc.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	ctx := context.Background()
	err = st.Update(ctx, func(tx *store.Tx) error {
		for i := range works {
			w := &store.Work{ID: fmt.Sprintf("work-%06d", i), RunSessionID: "run-1", State: "PLANNING", Prompt: "p",
				Pack: json.RawMessage(`{}`), Strategy: json.RawMessage(`{}`)}
			if err := tx.PutWork(ctx, w); err != nil {
				return err
			}
			if err := tx.PutAgent(ctx, &store.Agent{WorkID: w.ID, ID: "agent-1", Turns: events / works, Denials: 1, UsedTokens: 1000}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	at := time.Now().UTC()
	batch := make([]store.ObservedEvent, 0, 5000)
	for i := range events {
		e := store.ObservedEvent{At: at.Add(time.Duration(i) * time.Second).Format(time.RFC3339Nano), Kind: "turn",
			WorkID: fmt.Sprintf("work-%06d", i%works), AgentID: "agent-1", Verb: "read_file_lines", Seq: i/works + 1,
			Denied: i%7 == 0, Anchors: []string{"src/app"}, DurationUS: int64(500 + i%3000), Tokens: 40, Body: json.RawMessage(`{}`)}
		if e.Denied {
			e.Codes = []string{"PACK_SCOPE_VIOLATION"}
		}
		batch = append(batch, e)
		if len(batch) == cap(batch) {
			if _, err := st.AppendEvents(ctx, batch, 0); err != nil {
				tb.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	if _, err := st.AppendEvents(ctx, batch, 0); err != nil {
		tb.Fatal(err)
	}
	return st
}

// BenchmarkRuns is GET /runs over 1,000 works and 100,000 events (target:
// within 100 ms).
func BenchmarkRuns(b *testing.B) {
	st := seeded(b, 1000, 100000)
	h := New(Options{Store: st})
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/runs", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}

// BenchmarkMetrics is a Prometheus scrape over the same store.
func BenchmarkMetrics(b *testing.B) {
	st := seeded(b, 1000, 100000)
	h := New(Options{Store: st})
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkAnalytics is GET /analytics over the same store.
func BenchmarkAnalytics(b *testing.B) {
	st := seeded(b, 1000, 100000)
	h := New(Options{Store: st})
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/analytics", nil))
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// TestRunsAnswersEveryWork checks /runs over the benchmark's store shape
// (smaller) returns every work with its agents' totals.
func TestRunsAnswersEveryWork(t *testing.T) {
	st := seeded(t, 50, 500)
	rec := httptest.NewRecorder()
	New(Options{Store: st}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/runs", nil))
	var out struct {
		Runs []store.RunSummary `json:"runs"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Runs) != 50 || out.Runs[0].Turns != 10 || out.Runs[0].Agents != 1 || out.Runs[0].UsedTokens != 1000 {
		t.Errorf("/runs = %d runs, first %+v", len(out.Runs), out.Runs[0])
	}
	rec = httptest.NewRecorder()
	New(Options{Store: st}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for _, want := range []string{`mcpc_turns_total{outcome="denied"} 50`, `mcpc_recent_denials{code="PACK_SCOPE_VIOLATION"} 72`, `mcpc_works{state="PLANNING"} 50`} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}
