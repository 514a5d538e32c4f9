package observe

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/connector"
	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func observation(work string, seq int, denied bool, files ...string) *controller.TurnObservation {
	o := &controller.TurnObservation{
		At: time.Now(), Duration: 3 * time.Millisecond, EvalTime: time.Millisecond, WorkID: work, AgentID: "agent-1",
		Verb: "read_file_lines", Seq: seq, Allowed: !denied, StateBefore: "PLANNING", StateAfter: "PLANNING", Tokens: 42,
		Strategy: "debug_symptom_trace", Files: files, PolicyVersion: "sha256:abc", Stages: []string{"decide"},
		Input:  []byte(`{"verb":"read_file_lines","args":{"targetFile":"src/app/x.ts","content":"secret"}}`),
		Result: []byte(`{"allow":true}`),
	}
	if denied {
		o.Denials = []protocol.Denial{{Code: "PACK_SCOPE_VIOLATION", Rule: `mcpc.rules.scope["pack-scope"]`, Message: "outside"}}
		o.Result = []byte(`{"allow":false}`)
	}
	return o
}

func TestAnchors(t *testing.T) {
	for _, tc := range []struct {
		note  string
		files []string
		depth int
		want  []string
	}{
		{"depth 2", []string{"src/app/orders/x.ts", "src/app/y.ts", "README.md"}, 2, []string{".", "src/app"}},
		{"depth 1", []string{"src/app/orders/x.ts", "server/api/a.js"}, 1, []string{"server", "src"}},
		{"traversal stays inside", []string{"../../etc/passwd"}, 2, []string{"etc"}},
		{"none", nil, 2, []string{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := Anchors(tc.files, tc.depth); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Anchors(%v, %d) = %v, want %v", tc.files, tc.depth, got, tc.want)
			}
		})
	}
}

func TestTraceRef(t *testing.T) {
	ref := TraceRef("work-1", 12)
	if ref != ".ai/tmp/work/work-1/decisions/000012.json" {
		t.Fatalf("TraceRef = %s", ref)
	}
	if w, s, ok := ParseTraceRef(ref); !ok || w != "work-1" || s != 12 {
		t.Errorf("ParseTraceRef(%s) = %s %d %v", ref, w, s, ok)
	}
	for _, bad := range []string{"", "/etc/passwd", ".ai/tmp/work/a/b/decisions/000001.json", ".ai/tmp/work/w/decisions/x.json", ".ai/tmp/work/w/decisions/000000.json"} {
		if _, _, ok := ParseTraceRef(bad); ok {
			t.Errorf("ParseTraceRef(%q) accepted", bad)
		}
	}
}

// TestPipelineStoresPrunesAndLogs: events reach the store, the store keeps
// maxEvents observed rows, and every decision is logged in OPA's format
// with the masked field erased.
func TestPipelineStoresPrunesAndLogs(t *testing.T) {
	st := openStore(t)
	ws := t.TempDir()
	p, err := New(Options{Store: st, Workspace: ws, Version: "test", Config: config.Observe{
		MaxEvents: 10, QueueSize: 100, AnchorDepth: 2,
		DecisionLog: config.DecisionLog{MaxBytes: 1 << 20, Mask: []string{"/input/args/content"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 8; i++ {
		p.ObserveTurn(observation("work-1", i, i%2 == 0, "src/app/orders/x.ts"))
	}
	p.Close()
	if p.Dropped() != 0 {
		t.Fatalf("dropped %d", p.Dropped())
	}
	evs, err := st.ListEvents(context.Background(), store.EventFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	// 8 turns + 4 denials = 12, pruned to the newest 10.
	if len(evs) != 10 {
		t.Fatalf("kept %d events, want 10", len(evs))
	}
	last := evs[len(evs)-1]
	if last.Kind != KindDenial || last.Seq != 8 || last.Codes[0] != "PACK_SCOPE_VIOLATION" || last.Anchors[0] != "src/app" || last.Tokens != 42 || last.DurationUS != 3000 {
		t.Errorf("last event = %+v", last)
	}
	raw, err := os.ReadFile(filepath.Join(ws, ".ai/tmp/decision-log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(raw), []byte("\n"))
	if len(lines) != 8 {
		t.Fatalf("%d decision log lines, want 8", len(lines))
	}
	var ev struct {
		DecisionID string                        `json:"decision_id"`
		Path       string                        `json:"path"`
		Input      struct{ Args map[string]any } `json:"input"`
		Erased     []string                      `json:"erased"`
		Bundles    map[string]map[string]string  `json:"bundles"`
		Metrics    map[string]int64              `json:"metrics"`
		Labels     map[string]string             `json:"labels"`
	}
	if err := json.Unmarshal(lines[0], &ev); err != nil {
		t.Fatal(err)
	}
	if _, ok := ev.Input.Args["content"]; ok || ev.Input.Args["targetFile"] != "src/app/x.ts" {
		t.Errorf("masked input = %v", ev.Input)
	}
	if len(ev.Erased) != 1 || ev.Erased[0] != "/input/args/content" || ev.Path != DecisionPath || len(ev.DecisionID) != 36 ||
		ev.Bundles["mcpc"]["revision"] != "sha256:abc" || ev.Metrics["timer_rego_query_eval_ns"] != int64(time.Millisecond) ||
		ev.Labels["version"] != "test" || ev.Labels["id"] == "" {
		t.Errorf("decision event = %+v", ev)
	}
}

// TestQueueOverflowDropsAndCounts: a turn never waits for the writer.
func TestQueueOverflowDropsAndCounts(t *testing.T) {
	st := openStore(t)
	p := &Pipeline{opts: Options{Store: st}, queue: make(chan *controller.TurnObservation, 2), stop: make(chan struct{})}
	for i := 0; i < 5; i++ {
		p.ObserveTurn(observation("w", i+1, false))
	}
	if p.Dropped() != 3 || len(p.queue) != 2 {
		t.Errorf("dropped %d, queued %d; want 3 and 2", p.Dropped(), len(p.queue))
	}
	// Bytes bound the queue too: one decision input past the limit is
	// dropped even with room for turns.
	p2 := &Pipeline{opts: Options{Store: st}, queue: make(chan *controller.TurnObservation, 10), stop: make(chan struct{})}
	big := observation("w", 1, false)
	big.Input = make([]byte, maxQueuedBytes)
	p2.ObserveTurn(observation("w", 1, false))
	p2.ObserveTurn(big)
	if p2.Dropped() != 1 || len(p2.queue) != 1 {
		t.Errorf("dropped %d, queued %d; want 1 and 1", p2.Dropped(), len(p2.queue))
	}
}

func TestDecisionLogRotates(t *testing.T) {
	ws := t.TempDir()
	d, err := newDecisionLog(ws, config.DecisionLog{MaxBytes: 2048}, nopLog)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{opts: Options{Version: "t"}, id: "x"}
	for i := 0; i < 20; i++ {
		d.write(p.decisionEvent(observation("w", i+1, false)))
		d.flush() // one batch per event
	}
	d.close()
	cur, _ := os.Stat(filepath.Join(ws, ".ai/tmp/decision-log.jsonl"))
	old, err := os.Stat(filepath.Join(ws, ".ai/tmp/decision-log.jsonl.1"))
	if err != nil || cur.Size() > 2048 || old.Size() > 2048 {
		t.Errorf("rotation: current %v, rotated %v (%v)", cur.Size(), old, err)
	}
}

// TestDecisionLogHTTPSink: batches arrive as OPA's service API receives
// them, a gzip-compressed JSON array.
func TestDecisionLogHTTPSink(t *testing.T) {
	var mu sync.Mutex
	var got []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("headers %v", r.Header)
		}
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			t.Error(err)
			return
		}
		body, _ := io.ReadAll(zr)
		var batch []map[string]any
		if err := json.Unmarshal(body, &batch); err != nil {
			t.Errorf("batch is not a JSON array: %v", err)
		}
		mu.Lock()
		got = append(got, batch...)
		mu.Unlock()
	}))
	defer srv.Close()
	st := openStore(t)
	p, err := New(Options{Store: st, Workspace: t.TempDir(), Config: config.Observe{QueueSize: 100,
		DecisionLog: config.DecisionLog{URL: srv.URL + "/logs", Mask: []string{"/input/args"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		p.ObserveTurn(observation("w", i+1, false))
	}
	p.Close()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 5 {
		t.Fatalf("the sink received %d events, want 5", len(got))
	}
	in, _ := got[0]["input"].(map[string]any)
	if id, _ := got[0]["decision_id"].(string); len(id) != 36 || in["args"] != nil || got[0]["path"] != DecisionPath {
		t.Errorf("sink event = %v", got[0])
	}
}

func TestAnalyze(t *testing.T) {
	turn := func(id int64, agent, verb string, denied bool, codes ...string) store.ObservedEvent {
		return store.ObservedEvent{ID: id, At: "2026-11-25T01:0" + string(rune('0'+id%10)) + ":00Z", Kind: KindTurn, WorkID: "w", AgentID: agent,
			Verb: verb, Seq: int(id), Denied: denied, Codes: codes, Anchors: []string{"src/app"}, Strategy: "s", DurationUS: id * 1000}
	}
	// Newest first, as Analyze reads them.
	turns := []store.ObservedEvent{
		turn(5, "a", "read_file_lines", false),
		turn(4, "a", "read_file_lines", true, "PACK_SCOPE_VIOLATION"),
		turn(3, "b", "submit_execution_plan", true, "PLAN_STALE_PACK", "PLAN_EVIDENCE_INSUFFICIENT"),
		turn(2, "b", "submit_execution_plan", true, "PLAN_STALE_PACK"),
		turn(1, "a", "initialize_work", false),
	}
	esc := []store.ObservedEvent{{Kind: KindEscalate, Body: json.RawMessage(`{"added":["src/a.ts","src/b.ts"]}`)},
		{Kind: KindEscalate, Body: json.RawMessage(`{"added":["src/a.ts"]}`)}}
	a := analyze(turns, esc)
	if a.Heatmap[0] != (Cell{Code: "PLAN_STALE_PACK", Anchor: "src/app", Count: 2}) || len(a.Heatmap) != 3 {
		t.Errorf("heatmap = %+v", a.Heatmap)
	}
	if a.TopSignatures[0].Code != "PLAN_STALE_PACK" || a.TopSignatures[0].Count != 2 || a.TopSignatures[0].Strategy != "s" {
		t.Errorf("signatures = %+v", a.TopSignatures)
	}
	if a.RetrievalHotspots[0] != (Hotspot{File: "src/a.ts", Count: 2}) {
		t.Errorf("hotspots = %+v", a.RetrievalHotspots)
	}
	// Agent a's denied read was followed by an allowed one; b's plan was not.
	if len(a.PendingCorrections) != 1 || a.PendingCorrections[0].AgentID != "b" || a.PendingCorrections[0].Seq != 3 {
		t.Errorf("pending corrections = %+v", a.PendingCorrections)
	}
	if len(a.Trend) != 1 || a.Trend[0].Turns != 5 || a.Trend[0].Denials != 3 {
		t.Errorf("trend = %+v", a.Trend)
	}
}

var nopLog = zerolog.Nop()

// TestDecisionLogRefusesSymlink: a symlink planted where the log goes is
// never written through.
func TestDecisionLogRefusesSymlink(t *testing.T) {
	ws := t.TempDir()
	target := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(target, []byte("keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, ".ai/tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(ws, ".ai/tmp/decision-log.jsonl")); err != nil {
		t.Fatal(err)
	}
	d, err := newDecisionLog(ws, config.DecisionLog{}, nopLog)
	if err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{opts: Options{Version: "t"}, id: "x"}
	d.write(p.decisionEvent(observation("w", 1, false)))
	d.close()
	if got, _ := os.ReadFile(target); string(got) != "keep\n" {
		t.Errorf("the symlink's target was written: %q", got)
	}
	if _, err := newDecisionLog(ws, config.DecisionLog{Path: "../elsewhere.jsonl"}, nopLog); err == nil {
		t.Error("a path outside the workspace was accepted")
	}
}

// TestMemoryChange: an edit of the memory records between turns is a
// memory_change event, recorded once however many processes see it.
func TestMemoryChange(t *testing.T) {
	st := openStore(t)
	ws := t.TempDir()
	records := filepath.Join(ws, ".ai/memory/records.json")
	if err := os.MkdirAll(filepath.Dir(records), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(records, []byte(`[{"id":"m1","state":"approved"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Store: st, Workspace: ws, Config: config.Observe{QueueSize: 10, DecisionLog: config.DecisionLog{Disabled: true}}}
	p1, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := New(opts) // a second serve process on the same workspace
	if err != nil {
		t.Fatal(err)
	}
	p1.ObserveTurn(observation("w", 1, false))
	time.Sleep(100 * time.Millisecond)
	if err := os.WriteFile(records, []byte(`[{"id":"m1","state":"approved"},{"id":"m2","state":"pending"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	p1.ObserveTurn(observation("w", 2, false))
	p1.Close()
	p2.ObserveTurn(observation("w", 3, false))
	p2.Close()
	evs, err := st.ListEvents(context.Background(), store.EventFilter{Kind: KindMemoryChange})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 {
		t.Fatalf("%d memory_change events, want 1", len(evs))
	}
	var body struct {
		States map[string]int `json:"states"`
	}
	if err := json.Unmarshal(evs[0].Body, &body); err != nil || body.States["pending"] != 1 || body.States["approved"] != 1 {
		t.Errorf("memory_change body = %s", evs[0].Body)
	}
}

// TestConnectorRequestsAreEvents: each request initialize_work's connectors
// made is an event of its own, with the kernel's trace as its body.
func TestConnectorRequestsAreEvents(t *testing.T) {
	st := openStore(t)
	p, err := New(Options{Store: st, Workspace: t.TempDir(), Version: "test", Config: config.Observe{
		MaxEvents: 100, QueueSize: 10, AnchorDepth: 2, DecisionLog: config.DecisionLog{Disabled: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	o := observation("work-1", 1, false)
	o.Verb = "initialize_work"
	o.Connectors = []connector.Trace{
		{Source: "jira", Target: "jira.test/rest/api/3/issue/SHOP-42", Attempt: 1, Status: 200, Cache: "miss", DurationMs: 12},
		{Source: "jira", Target: "jira.test/rest/api/3/issue/SHOP-43", Attempt: 1, Status: 401, DurationMs: 3, Error: "unauthorized"},
	}
	p.ObserveTurn(o)
	p.Close()
	evs, err := st.ListEvents(context.Background(), store.EventFilter{Kind: KindConnector, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 2 {
		t.Fatalf("%d connector events, want 2", len(evs))
	}
	var tr connector.Trace
	if err := json.Unmarshal(evs[1].Body, &tr); err != nil || tr != o.Connectors[1] || evs[1].WorkID != "work-1" {
		t.Errorf("connector event = %+v (%s), body %+v", evs[1], err, tr)
	}
}
