// Package observe turns what mcpc does into observable records: events in
// the shared store (every turn, denial, state change, patch, validation,
// gate approval and bundle load, with its time, work, agent, verb, codes,
// duration and tokens), OPA-format decision-log events, and the analytics
// the dashboard shows over them (rejection heatmap, trend, signatures,
// retrieval hotspots, pending corrections).
//
// Nothing here runs on a turn's hot path: a finished turn is converted into
// a job and queued on a bounded channel; one goroutine drains the queue,
// writing batches in a transaction of its own and the decision log after
// it. A full queue drops the job and counts it; a turn never waits.
package observe

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/store"
)

// Event kinds.
const (
	KindTurn         = "turn"
	KindDenial       = "denial"
	KindStateChange  = "state_change"
	KindPatch        = "patch"
	KindValidation   = "validation"
	KindSideEffect   = "side_effect"
	KindEscalate     = "escalate"
	KindGateApproval = "gate_approval"
	KindMemoryChange = "memory_change"
	KindBundleLoad   = "bundle_load"
	KindConnector    = "connector"
)

// Options configures a Pipeline.
type Options struct {
	Store     *store.Store
	Workspace string
	Config    config.Observe
	// Version is mcpc's version, the decision log's labels.version.
	Version string
	Log     *zerolog.Logger
	// batchWait is how long the drain waits for more jobs before it
	// writes a batch (default 20ms; an event reaches the dashboard's
	// 100ms poll well within 250ms).
	batchWait time.Duration
}

// Pipeline is the controller's Observer.
type Pipeline struct {
	opts    Options
	log     zerolog.Logger
	queue   chan *controller.TurnObservation
	dropped atomic.Int64
	// queuedBytes are the input and result bytes of queued turns.
	queuedBytes atomic.Int64
	written     atomic.Int64
	pruned      atomic.Int64
	dlog        *decisionLog
	memory      *memoryWatch // nil without a workspace
	id          string       // this process's labels.id
	stop        chan struct{}
	done        sync.WaitGroup
	closed      atomic.Bool
}

// New starts a Pipeline; Close stops it after writing what is queued.
func New(opts Options) (*Pipeline, error) {
	p := &Pipeline{opts: opts, log: zerolog.Nop(), stop: make(chan struct{}), id: newDecisionID()}
	if opts.Log != nil {
		p.log = *opts.Log
	}
	if p.opts.batchWait == 0 {
		p.opts.batchWait = 20 * time.Millisecond
	}
	qs := opts.Config.QueueSize
	if qs <= 0 {
		qs = 4096
	}
	p.queue = make(chan *controller.TurnObservation, qs)
	if opts.Workspace != "" {
		if p.memory = newMemoryWatch(opts.Workspace); p.memory != nil {
			p.memory.check() // the baseline: what was there before this process
		}
	}
	if !opts.Config.DecisionLog.Disabled {
		dl, err := newDecisionLog(opts.Workspace, opts.Config.DecisionLog, p.log)
		if err != nil {
			return nil, err
		}
		p.dlog = dl
	}
	p.done.Add(1)
	go p.drain()
	return p, nil
}

// ObserveTurn queues the turn; a full queue drops it (counted in Dropped).
func (p *Pipeline) ObserveTurn(o *controller.TurnObservation) {
	if p.closed.Load() {
		return
	}
	// Queued turns hold their decision's input (up to the request limit
	// each): the queue is bounded in bytes as well as in turns.
	size := int64(len(o.Input) + len(o.Result))
	if p.queuedBytes.Add(size) > maxQueuedBytes {
		p.queuedBytes.Add(-size)
		p.dropped.Add(1)
		return
	}
	select {
	case p.queue <- o:
	default:
		p.queuedBytes.Add(-size)
		p.dropped.Add(1)
	}
}

// maxQueuedBytes bounds the decision documents waiting in the queue.
const maxQueuedBytes = 64 << 20

// Dropped is how many turns were not recorded because the queue was full.
func (p *Pipeline) Dropped() int64 { return p.dropped.Load() }

// Written is how many events were stored.
func (p *Pipeline) Written() int64 { return p.written.Load() }

// Close writes what is queued and stops.
func (p *Pipeline) Close() {
	if p.closed.Swap(true) {
		return
	}
	close(p.stop)
	p.done.Wait()
	if p.dlog != nil {
		p.dlog.close()
	}
}

func (p *Pipeline) drain() {
	defer p.done.Done()
	for {
		// Parked on the queue only when idle: the first turn of a burst
		// wakes this goroutine, the rest of the burst finds it asleep on
		// its timer, and a send to a channel nobody waits on wakes no
		// thread (a wake would land on the turn).
		var first *controller.TurnObservation
		select {
		case first = <-p.queue:
		case <-p.stop:
			p.flushRest()
			return
		}
		batch := []*controller.TurnObservation{first}
		for {
			select {
			case <-time.After(p.opts.batchWait):
			case <-p.stop:
			}
			batch = takeQueued(p.queue, batch, 1024)
			if len(batch) == 0 { // nothing arrived meanwhile: park
				break
			}
			p.write(batch)
			batch = batch[:0]
		}
	}
}

// takeQueued appends what is queued, up to max in all, without waiting.
func takeQueued(q chan *controller.TurnObservation, batch []*controller.TurnObservation, max int) []*controller.TurnObservation {
	for len(batch) < max {
		select {
		case o := <-q:
			batch = append(batch, o)
		default:
			return batch
		}
	}
	return batch
}

func (p *Pipeline) flushRest() {
	for {
		var batch []*controller.TurnObservation
	more:
		for len(batch) < 256 {
			select {
			case o := <-p.queue:
				batch = append(batch, o)
			default:
				break more
			}
		}
		if len(batch) == 0 {
			return
		}
		p.write(batch)
	}
}

// write stores a batch's events, then writes its decision-log events.
func (p *Pipeline) write(batch []*controller.TurnObservation) {
	var events []store.ObservedEvent
	for _, o := range batch {
		events = append(events, p.eventsOf(o)...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	events = append(events, p.memoryChanged(ctx)...)
	pruned, err := p.opts.Store.AppendEvents(ctx, events, p.opts.Config.MaxEvents)
	if err != nil {
		p.dropped.Add(int64(len(batch)))
		p.log.Warn().Err(err).Int("events", len(events)).Msg("observed events not stored")
	} else {
		p.written.Add(int64(len(events)))
		p.pruned.Add(pruned)
	}
	if p.dlog != nil {
		for _, o := range batch {
			p.dlog.write(p.decisionEvent(o))
		}
		p.dlog.flush()
	}
	for _, o := range batch {
		p.queuedBytes.Add(-int64(len(o.Input) + len(o.Result)))
	}
}

// turnBody is a turn event's body: the trace of the turn.
type turnBody struct {
	Allowed     bool       `json:"allowed"`
	StateBefore string     `json:"stateBefore"`
	StateAfter  string     `json:"stateAfter"`
	EvalNS      int64      `json:"evalNs"`
	Stages      []string   `json:"stages"`
	Violations  []violated `json:"violations"`
	Files       []string   `json:"files"`
	Policy      string     `json:"policyVersion"`
	TraceRef    string     `json:"traceRef,omitempty"`
}

type violated struct {
	Code     string `json:"code"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Path     string `json:"path,omitempty"`
	Severity string `json:"severity,omitempty"`
}

// eventsOf derives a turn's events: the turn itself, and what it did.
func (p *Pipeline) eventsOf(o *controller.TurnObservation) []store.ObservedEvent {
	at := o.At.UTC().Format(time.RFC3339Nano)
	codes := make([]string, 0, len(o.Denials))
	viol := make([]violated, 0, len(o.Denials))
	for _, d := range o.Denials {
		codes = append(codes, d.Code)
		viol = append(viol, violated{Code: d.Code, Rule: d.Rule, Message: d.Message, Path: d.Path, Severity: d.Severity})
	}
	anchors := Anchors(append(append([]string{}, o.Files...), o.Added...), p.opts.Config.AnchorDepth)
	base := store.ObservedEvent{
		At: at, WorkID: o.WorkID, AgentID: o.AgentID, NodeID: o.NodeID, Verb: o.Verb, Seq: o.Seq,
		Denied: !o.Allowed, Codes: codes, Anchors: anchors, Strategy: o.Strategy,
		DurationUS: o.Duration.Microseconds(), Tokens: o.Tokens,
	}
	body := turnBody{
		Allowed: o.Allowed, StateBefore: o.StateBefore, StateAfter: o.StateAfter, EvalNS: o.EvalTime.Nanoseconds(),
		Stages: orEmpty(o.Stages), Violations: viol, Files: orEmpty(o.Files), Policy: o.PolicyVersion,
	}
	if o.WorkID != "" && o.Seq > 0 {
		body.TraceRef = TraceRef(o.WorkID, o.Seq)
	}
	out := []store.ObservedEvent{with(base, KindTurn, body)}
	for _, tr := range o.Connectors { // a connector's request, as the kernel traced it
		out = append(out, with(base, KindConnector, tr))
	}
	if !o.Allowed {
		return append(out, with(base, KindDenial, map[string]any{"violations": viol}))
	}
	if o.StateAfter != o.StateBefore {
		out = append(out, with(base, KindStateChange, map[string]string{"from": o.StateBefore, "to": o.StateAfter}))
	}
	switch o.Verb {
	case "apply_code_patch":
		out = append(out, with(base, KindPatch, map[string]any{"files": orEmpty(o.Files)}))
	case "run_automation_recipe":
		out = append(out, with(base, KindValidation, recipeOf(o.Input)))
	case "execute_gated_side_effect":
		out = append(out, with(base, KindSideEffect, map[string]any{}))
	case "escalate":
		out = append(out, with(base, KindEscalate, map[string]any{"added": orEmpty(o.Added)}))
	}
	return out
}

// recipeOf picks the recipe id out of a decision input.
func recipeOf(input []byte) map[string]any {
	var in struct {
		Args struct {
			RecipeID string `json:"recipeId"`
		} `json:"args"`
	}
	_ = json.Unmarshal(input, &in)
	return map[string]any{"recipeId": in.Args.RecipeID}
}

func with(e store.ObservedEvent, kind string, body any) store.ObservedEvent {
	e.Kind = kind
	e.Body, _ = json.Marshal(body)
	if e.Codes == nil {
		e.Codes = []string{}
	}
	return e
}

// TraceRef is the traceRef a turn's answer carries: its decision record's
// path in the work bucket.
func TraceRef(workID string, seq int) string {
	return ".ai/tmp/work/" + workID + fmt.Sprintf("/decisions/%06d.json", seq)
}

// ParseTraceRef is TraceRef's inverse.
func ParseTraceRef(ref string) (workID string, seq int, ok bool) {
	rest, found := strings.CutPrefix(ref, ".ai/tmp/work/")
	if !found {
		return "", 0, false
	}
	workID, file, found := strings.Cut(rest, "/decisions/")
	if !found || workID == "" || strings.Contains(workID, "/") {
		return "", 0, false
	}
	num, found := strings.CutSuffix(file, ".json")
	if !found || len(num) == 0 {
		return "", 0, false
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return "", 0, false
		}
		seq = seq*10 + int(c-'0')
		if seq > 1<<30 {
			return "", 0, false
		}
	}
	return workID, seq, seq > 0
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// RecordGateApproval stores a gate_approval event (mcpc gate approve runs
// outside any turn, in its own process, so it writes at once).
func RecordGateApproval(ctx context.Context, st *store.Store, workID, gateID, by string) error {
	e := with(store.ObservedEvent{At: time.Now().UTC().Format(time.RFC3339Nano), WorkID: workID, AgentID: by},
		KindGateApproval, map[string]string{"gateId": gateID, "approvedBy": by})
	e.Anchors = []string{}
	_, err := st.AppendEvents(ctx, []store.ObservedEvent{e}, 0)
	return err
}

// BundleLoaded stores a bundle_load event: the policy revision a process
// decides with from now on, and where it came from. It runs at start-up
// and on the bundle poller's goroutine, never on a turn's.
func (p *Pipeline) BundleLoaded(revision, source string) {
	e := with(store.ObservedEvent{At: time.Now().UTC().Format(time.RFC3339Nano), Anchors: []string{}},
		KindBundleLoad, map[string]string{"revision": revision, "source": source, "process": p.id})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := p.opts.Store.AppendEvents(ctx, []store.ObservedEvent{e}, 0); err != nil {
		p.log.Warn().Err(err).Msg("bundle_load event not stored")
	}
}
