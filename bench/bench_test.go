// Package bench measures mcpc's hot paths: one gated read turn (in process
// and over real stdio against the binary) and the validation of a 200-node
// plan (the decision alone and the whole turn). Figures, never assertions:
// run `make bench` and read ns/op, allocs/op and the p50/p99 metrics.
package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/mcpc/mcpc/examples"
	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

func example(b *testing.B) string {
	b.Helper()
	ws := b.TempDir()
	if err := examples.CopyAngularShop(ws); err != nil {
		b.Fatal(err)
	}
	return ws
}

func turn(b *testing.B, a *app.App, req map[string]any) *protocol.TurnResponse {
	raw, _ := json.Marshal(req)
	resp, err := a.Controller.Turn(context.Background(), raw)
	if err != nil {
		b.Fatal(err)
	}
	return resp
}

// mustTurn runs a turn that must be allowed.
func mustTurn(b *testing.B, a *app.App, req map[string]any) *protocol.TurnResponse {
	b.Helper()
	r := turn(b, a, req)
	if len(r.Denials) > 0 {
		b.Fatal(r.DenyReasons)
	}
	return r
}

// loopTurns is the measured loop: the same allowed turn, b.N times. It
// reports cpu-ns/op besides wall time, the process's CPU time per turn
// (garbage collection and the recorder's writes included): on a shared
// machine the wall figure mostly measures the other tenants. The
// collector's share of that CPU, its cycles and the live and scannable
// heap it left are reported beside it (gcStats), so a slower turn can be
// told apart as more work in the turn or more marking.
func loopTurns(b *testing.B, a *app.App, req map[string]any) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU()
	gs := newGCStats()
	for b.Loop() {
		mustTurn(b, a, req)
	}
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
	gs.report(b)
}

// benchBudget is the budget slice and session ceiling of the benchmarks'
// works: a read turn is charged about 500 tokens (its answer included), so
// no loop of 4,000 turns exhausts the threshold (2.1M tokens), and, like the
// default (100,000) and any budget under 3,579,139 tokens at the default
// 600/1000 threshold, it keeps the thresholds' arithmetic in OPA's small
// integers. Budgets of 2^40 and more measured OPA's big-number arithmetic
// instead (some 220 allocations a decision), which no real configuration
// reaches.
const benchBudget = 3_500_000

// started opens the example with benchBudget and runs initialize_work.
func started(b *testing.B) (*app.App, *protocol.TurnResponse) {
	return startedBudget(b, benchBudget)
}

// startedBudget is started with a budget slice and session ceiling of
// budget tokens.
func startedBudget(b *testing.B, budget int) (*app.App, *protocol.TurnResponse) {
	ws := example(b)
	a, err := app.Open(context.Background(), app.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	a.Config.Budget.MaxTokens, a.Config.Budget.WorkMaxTokens, a.Config.Budget.SessionMaxTokens = budget, 4*budget, budget
	init := turn(b, a, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
	if len(init.Denials) > 0 {
		b.Fatal(init.DenyReasons)
	}
	return a, init
}

// readRequest is the benchmarks' read turn: five lines of the demo's target
// in the work init started.
func readRequest(init *protocol.TurnResponse) map[string]any {
	return map[string]any{"verb": "read_file_lines", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 5}}
}

// BenchmarkReadTurn is one read_file_lines turn in process: decode, store
// transaction, facts, OPA decision, read, decision record, response.
func BenchmarkReadTurn(b *testing.B) {
	a, init := started(b)
	req := readRequest(init)
	loopTurns(b, a, req)
}

// BenchmarkReadTurnColdCache is that read turn with the CPU caches emptied
// before it (a 256 MiB sweep, off the clock): the in-process share of
// BenchmarkStdioReadTurnPaced. After an agent's pause a turn finds its code
// and data evicted by whatever else ran on the host, and every stage of it
// takes several times its warm time; a sweep this size evicts about as much
// as a 110 ms pause does on the 2-core VM. One iteration is coldTurns
// turns, reported as p50 and p99.
func BenchmarkReadTurnColdCache(b *testing.B) {
	const coldTurns = 200
	a, init := started(b)
	raw, _ := json.Marshal(readRequest(init))
	sweep := make([]byte, 256<<20)
	var lat []time.Duration
	for b.Loop() {
		for range coldTurns {
			for i := 0; i < len(sweep); i += 64 { // one write per cache line
				sweep[i]++
			}
			start := time.Now()
			r, err := a.Controller.Turn(context.Background(), raw)
			lat = append(lat, time.Since(start))
			if err != nil || len(r.Denials) > 0 {
				b.Fatal(err, r)
			}
		}
	}
	reportLatency(b, lat)
}

// plan200 is a valid plan of 100 change nodes and 100 validate nodes over
// the pack initialize_work returned.
func plan200(init *protocol.TurnResponse) map[string]any {
	env, _ := init.PlanGraphSchema["envelope"].(map[string]any)
	files := packFiles(init)
	plan := demo.Plan(env, true)
	var nodes []any
	for i := 0; i < 100; i++ {
		change := demo.Plan(env, true)["nodes"].([]any)[0].(map[string]any)
		change["nodeId"] = fmt.Sprintf("change-%03d", i)
		change["targetFile"] = files[i%len(files)]
		change["codeEvidence"] = []any{map[string]any{"file": files[i%len(files)], "startLine": 1}}
		if i > 0 {
			change["dependsOn"] = []string{fmt.Sprintf("change-%03d", i-1)}
		}
		validate := demo.Plan(env, true)["nodes"].([]any)[1].(map[string]any)
		validate["nodeId"] = fmt.Sprintf("validate-%03d", i)
		validate["dependsOn"] = []string{change["nodeId"].(string)}
		validate["mapsToNodeIds"] = []string{change["nodeId"].(string)}
		nodes = append(nodes, change, validate)
	}
	plan["nodes"] = nodes
	return plan
}

func packFiles(r *protocol.TurnResponse) []string {
	raw, _ := json.Marshal(r.ContextPack["files"])
	var files []string
	_ = json.Unmarshal(raw, &files)
	return slices.DeleteFunc(files, func(f string) bool { return filepath.Ext(f) == ".json" || filepath.Ext(f) == ".md" })
}

// BenchmarkPlan200Turn submits a 200-node plan as a whole turn (accepted;
// each iteration replaces the previous plan, as nothing has started).
func BenchmarkPlan200Turn(b *testing.B) {
	// Each submission is charged some 30,000 tokens: only a budget past
	// OPA's small integers lasts the loop.
	a, init := startedBudget(b, 1<<40)
	req := map[string]any{"verb": "submit_execution_plan", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planGraph": plan200(init)}}
	mustTurn(b, a, req)
	loopTurns(b, a, req)
}

// BenchmarkPlan200Decision is the policy decision alone over a recorded
// 200-node submission input (converted before the clock starts, in
// variants: see planVariants).
func BenchmarkPlan200Decision(b *testing.B) {
	a, init := started(b)
	r := turn(b, a, map[string]any{"verb": "submit_execution_plan", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planGraph": plan200(init)}})
	if len(r.Denials) > 0 {
		b.Fatal(r.DenyReasons)
	}
	var rec []byte
	err := a.Store.View(context.Background(), func(tx *store.Tx) error {
		var err error
		rec, err = tx.Decision(context.Background(), init.WorkID, 2)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	var doc struct {
		Input json.RawMessage `json:"input"`
	}
	_ = json.Unmarshal(rec, &doc)
	if dump := os.Getenv("MCPC_BENCH_DUMP"); dump != "" {
		_ = os.WriteFile(dump, doc.Input, 0o644) // for `opa eval --profile`
	}
	ins := planVariants(b, doc.Input)
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU()
	i := 0
	for b.Loop() {
		var out struct {
			Allow bool `json:"allow"`
		}
		if _, err := a.Engine.Current().Eval(context.Background(), ins[i%len(ins)], &out); err != nil || !out.Allow {
			b.Fatal(err, out)
		}
		i++
	}
	// wall time on a shared machine says more about the neighbours
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// planVariants converts the recorded plan input as planVariantCount
// submissions that differ as two turns' do: another plan (an edit intent),
// another request size, the agent's and the session's usage, the clock.
// The engine keeps rule values by the input members they read, so
// evaluating one input again and again would measure its memo, not the
// rules; cycling through more variants than it keeps per rule measures a
// fresh plan each time, with what really stays the same between turns
// (the envelope, the pack, the configuration) shared as it is then.
func planVariants(b *testing.B, raw []byte) []*engine.Input {
	const planVariantCount = 8
	var ins []*engine.Input
	for i := range planVariantCount {
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			b.Fatal(err)
		}
		sub := doc["submission"].(map[string]any)
		node := sub["nodes"].([]any)[0].(map[string]any)
		node["editIntent"] = fmt.Sprintf("%s (variant %d)", node["editIntent"], i)
		request := doc["request"].(map[string]any)
		request["bytes"] = request["bytes"].(float64) + float64(i)
		for _, key := range []string{"agent", "work", "session"} {
			m := doc[key].(map[string]any)
			m["usedTokens"] = m["usedTokens"].(float64) + float64(i)
		}
		now := fmt.Sprintf("2026-01-01T00:00:%02dZ", i)
		doc["enforcement"].(map[string]any)["now"] = now
		doc["memoryLifecycle"].(map[string]any)["now"] = now
		in, err := engine.ParseInput(doc)
		if err != nil {
			b.Fatal(err)
		}
		ins = append(ins, in)
	}
	return ins
}

// stdioSetup builds the binary and an example workspace whose budget no
// loop exhausts.
func stdioSetup(b *testing.B) (bin, ws string) {
	bin = filepath.Join(b.TempDir(), "mcpc")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/mcpc/mcpc/cmd/mcpc").CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	ws = example(b)
	if err := os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(fmt.Sprintf(`{"budget": {"maxTokens": %d, "sessionMaxTokens": %d}}`, benchBudget, benchBudget)), 0o644); err != nil {
		b.Fatal(err)
	}
	return bin, ws
}

// BenchmarkStdioReadTurn is a read turn over real stdio against the built
// binary, reporting p50 and p99 latency as metrics.
func BenchmarkStdioReadTurn(b *testing.B) {
	bin, ws := stdioSetup(b)
	ctx := context.Background()
	c, err := mcp.Dial(ctx, exec.Command(bin, "serve", "--workspace", ws, "--no-warm"))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	init, err := c.Turn(ctx, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt})
	if err != nil || len(init.Denials) > 0 {
		b.Fatal(err, init.DenyReasons)
	}
	req := readRequest(init)
	if os.Getenv("MCPC_BENCH_PING") != "" { // transport alone, for comparison
		start := time.Now()
		for i := 0; i < 200; i++ {
			_ = c.Ping(ctx)
		}
		b.Logf("ping round trip %v", time.Since(start)/200)
	}
	for range warmTurns {
		if _, err := c.Turn(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
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

// BenchmarkInitializeWork is initialize_work with a warm index on a real
// repository: MCPC_BENCH_REPO names its work tree (skipped when unset).
// It includes the index refresh initialize_work does before ranking.
func BenchmarkInitializeWork(b *testing.B) {
	ws := os.Getenv("MCPC_BENCH_REPO")
	if ws == "" {
		b.Skip("set MCPC_BENCH_REPO to a repository work tree to measure initialize_work on it")
	}
	a, err := app.Open(context.Background(), app.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	defer a.Close()
	req := map[string]any{"verb": "initialize_work", "originalPrompt": "fix: Heading hash on link dropped when pasting"}
	mustTurn(b, a, req) // warm: the first refresh and the ranking caches
	loopTurns(b, a, req)
}

// BenchmarkReadTurnPlan200 is a read turn on a work whose accepted plan has
// 200 nodes: reads must not pay for the plan's size.
func BenchmarkReadTurnPlan200(b *testing.B) {
	a, init := started(b)
	mustTurn(b, a, map[string]any{"verb": "submit_execution_plan", "workId": init.WorkID, "agentId": init.AgentID,
		"args": map[string]any{"planGraph": plan200(init)}})
	req := readRequest(init)
	loopTurns(b, a, req)
}

// BenchmarkStdioReadTurnRaw is the same read turn over real stdio with a
// minimal client (one JSON line out, one line back), so the figure is the
// server's and the pipe's, not an SDK client's decoding.
func BenchmarkStdioReadTurnRaw(b *testing.B) {
	s := rawReadSession(b)
	s.loopServerCPU(b)
}

// BenchmarkStdioReadTurnRawNoEvents is BenchmarkStdioReadTurnRaw with
// observability off (observe.disabled): the pair measures what events and
// the decision log add to a read turn.
func BenchmarkStdioReadTurnRawNoEvents(b *testing.B) {
	b.Setenv("MCPC_OBSERVE_DISABLED", "true")
	s := rawReadSession(b)
	s.loopServerCPU(b)
}

// BenchmarkStdioReadTurnPaced is that read turn as an agent makes it: after
// a pause (its thinking), long enough for the recorder's quiet moment, so
// record files and the store's upkeep run between turns as they do in use,
// and caches have cooled. One iteration is pacedTurns turns; the figures
// are their p50 and p99 (ns/op is the whole paced run).
func BenchmarkStdioReadTurnPaced(b *testing.B) {
	s := rawReadSession(b)
	loopPaced(b, func() time.Duration { return s.readTurn(b) })
}

// loopPaced is the measured loop of the paced benchmarks: one iteration is
// pacedTurns turns, each after pacedPause, reported as p50 and p99.
func loopPaced(b *testing.B, turn func() time.Duration) {
	b.Helper()
	const pacedTurns, pacedPause = 150, 110 * time.Millisecond
	var lat []time.Duration
	for b.Loop() {
		for range pacedTurns {
			time.Sleep(pacedPause)
			lat = append(lat, turn())
		}
	}
	reportLatency(b, lat)
}

// rawSession is serve on a copy of the example driven with raw JSON-RPC
// lines, each request with an id of its own (MCP forbids reusing one).
type rawSession struct {
	w    io.Writer
	r    *bufio.Reader
	id   int
	tail []byte // the read turn's request line after its id
	line []byte
	pid  int // the serve process
}

// loopServerCPU is loopLatency over the session's read turns that also
// reports the serve process's CPU per turn (server-cpu-us/op, Linux): the
// figure to compare builds by on a loaded machine, where wall time mostly
// measures the other jobs.
func (s *rawSession) loopServerCPU(b *testing.B) {
	b.Helper()
	var from time.Duration
	measured := true
	loopLatencyFrom(b, func() time.Duration { return s.readTurn(b) }, func() {
		from, measured = childCPU(s.pid)
	})
	if to, ok := childCPU(s.pid); ok && measured {
		b.ReportMetric(float64((to-from).Microseconds())/float64(b.N), "server-cpu-us/op")
	}
}

// rawReadSession starts serve on a copy of the example and initializes a
// work over raw JSON-RPC lines.
func rawReadSession(b *testing.B) *rawSession {
	bin, ws := stdioSetup(b)
	cmd := exec.Command(bin, "serve", "--workspace", ws, "--no-warm")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { stdin.Close(); cmd.Wait() })
	s := &rawSession{w: stdin, r: bufio.NewReaderSize(stdout, 1<<20), pid: cmd.Process.Pid}
	call := func(method string, params any) map[string]any {
		s.id++
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": s.id, "method": method, "params": params})
		stdin.Write(append(msg, '\n'))
		line, err := s.r.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal(line, &m)
		return m
	}
	call("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}})
	stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	init := call("tools/call", map[string]any{"name": "controller_turn", "arguments": map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt}})
	sc := init["result"].(map[string]any)["structuredContent"].(map[string]any)
	req, _ := json.Marshal(map[string]any{"id": 0, "jsonrpc": "2.0", "method": "tools/call", "params": map[string]any{"name": "controller_turn",
		"arguments": map[string]any{"verb": "read_file_lines", "workId": sc["workId"], "agentId": sc["agentId"],
			"args": map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 5}}}})
	s.tail = append(bytes.TrimPrefix(req, []byte(`{"id":0`)), '\n')
	return s
}

// readTurn sends the read turn under a new id and returns how long its
// answer took. The answer is checked after the clock stops: it must answer
// that id with an allowed read, so an error answered in a few microseconds
// can never pass for a fast turn.
func (s *rawSession) readTurn(b *testing.B) time.Duration {
	s.id++
	s.line = append(strconv.AppendInt(append(s.line[:0], `{"id":`...), int64(s.id), 10), s.tail...)
	start := time.Now()
	s.w.Write(s.line)
	answer, err := s.r.ReadSlice('\n')
	took := time.Since(start)
	if err != nil {
		b.Fatal(err)
	}
	head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":`, s.id)
	if !bytes.HasPrefix(answer, []byte(head)) || !bytes.Contains(answer, []byte(`"denials":[],`)) {
		b.Fatalf("request %d: not an allowed read: %.300s", s.id, answer)
	}
	return took
}

// warmTurns are read turns run, unmeasured, before a back-to-back stdio
// loop, as the b.N rounds of a classic benchmark would run before its last:
// b.Loop measures from the first turn of a fresh process, whose first
// hundred or so turns prepare each pooled connection's statements and run
// its first collections on a small heap. The paced benchmark has none: it
// measures turns as cold as an agent's.
const warmTurns = 200

// loopLatency is the measured loop of the back-to-back stdio benchmarks:
// warmTurns unmeasured turns, then b.N measured ones, reported as p50 and
// p99.
func loopLatency(b *testing.B, turn func() time.Duration) {
	b.Helper()
	loopLatencyFrom(b, turn, func() {})
}

// loopLatencyFrom is loopLatency calling started once the warm turns are
// done, right before the measured ones.
func loopLatencyFrom(b *testing.B, turn func() time.Duration, started func()) {
	b.Helper()
	for range warmTurns {
		turn()
	}
	var lat []time.Duration
	started()
	b.ResetTimer()
	for b.Loop() {
		lat = append(lat, turn())
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// reportLatency adds the p50 and p99 of the measured turns as metrics.
func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-us")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-us")
}
