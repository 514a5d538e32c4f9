package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// LedgerFile is the friction ledger: one JSON line per denied turn.
const LedgerFile = ".ai/tmp/friction-ledger.jsonl"

// Denial is what the controller hands the learner about one denied turn.
// It is built from facts the turn already holds, so handing it over costs
// the turn a channel send and nothing else.
type Denial struct {
	At       time.Time
	Verb     string
	Codes    []string
	Messages []string
	Files    []string
	Nodes    []PlanNode
	Strategy string
	Session  string
	Work     string
	Agent    string
	Seq      int
}

// PlanNode is what a few-shot scaffold cites of a plan node involved in a
// denial.
type PlanNode struct {
	ID         string `json:"nodeId"`
	Kind       string `json:"kind"`
	TargetFile string `json:"targetFile,omitempty"`
	EditIntent string `json:"editIntent,omitempty"`
}

// LedgerEntry is one line of the friction ledger.
type LedgerEntry struct {
	At            string         `json:"at"`
	Trigger       string         `json:"trigger"`
	Codes         []string       `json:"rejectionCodes"`
	DomainAnchors []string       `json:"domainAnchors"`
	Files         []string       `json:"files"`
	Counts        map[string]int `json:"counts"` // signature key → denials so far
	Strategy      string         `json:"strategy"`
	Session       string         `json:"session"`
	Work          string         `json:"work"`
	Agent         string         `json:"agent"`
	Seq           int            `json:"seq"`
}

// Signature is the (code, domain anchor, strategy) a candidate learns from.
type Signature struct {
	Code     string `json:"code"`
	Anchor   string `json:"anchor"`
	Strategy string `json:"strategy"`
}

// Key is the signature as one string.
func (s Signature) Key() string { return s.Code + "|" + s.Anchor + "|" + s.Strategy }

// AnchorOf is a file's domain anchor: its folders up to depth (the graph's
// anchors.maxDepth), "" for a file at the root.
func AnchorOf(file string, depth int) string {
	dir := path.Dir(strings.TrimPrefix(file, "/"))
	if dir == "." || dir == "/" {
		return ""
	}
	parts := strings.Split(dir, "/")
	return strings.Join(parts[:min(len(parts), depth)], "/")
}

// learnerQueue bounds the denials waiting for the learner; past it a
// denial is counted as dropped rather than held up (a hostile agent's
// flood of denials costs the server a counter).
const learnerQueue = 1024

// Learner turns denials into ledger lines and candidates on its own
// goroutine, outside the turn's hot path.
type Learner struct {
	res     *pathscope.Resolver
	cfg     config.Memory
	depth   int
	log     zerolog.Logger
	ch      chan Denial
	wg      sync.WaitGroup
	mu      sync.Mutex // guards closed
	closed  bool
	dropped atomic.Int64
	counts  map[string]int // loaded from the ledger at the first denial
	idle    sync.Cond      // signalled when the queue drains (Sync)
	pending atomic.Int64
}

// NewLearner starts a learner for the workspace.
func NewLearner(res *pathscope.Resolver, cfg *config.Config, log zerolog.Logger) *Learner {
	l := &Learner{res: res, cfg: cfg.Memory, depth: cfg.Graph.Anchors.MaxDepth, log: log, ch: make(chan Denial, learnerQueue)}
	l.idle.L = &sync.Mutex{}
	l.wg.Add(1)
	go l.run()
	return l
}

// Note hands a denial to the learner without waiting.
func (l *Learner) Note(d Denial) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.pending.Add(1)
	select {
	case l.ch <- d:
	default:
		l.pending.Add(-1)
		l.dropped.Add(1)
	}
}

// Sync waits until every denial noted so far has been learned from.
func (l *Learner) Sync() {
	l.idle.L.Lock()
	for l.pending.Load() > 0 {
		l.idle.Wait()
	}
	l.idle.L.Unlock()
}

// Close learns from what is queued and stops.
func (l *Learner) Close() {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.ch)
	}
	l.mu.Unlock()
	l.wg.Wait()
}

func (l *Learner) run() {
	defer l.wg.Done()
	for d := range l.ch {
		if err := l.learn(d); err != nil {
			l.log.Warn().Err(err).Msg("friction not recorded")
		}
		l.idle.L.Lock()
		l.pending.Add(-1)
		l.idle.Broadcast()
		l.idle.L.Unlock()
	}
}

// learn appends the ledger line and opens a candidate for each signature
// that reached the threshold.
func (l *Learner) learn(d Denial) error {
	if l.counts == nil {
		l.counts = countLedger(l.res)
	}
	anchors := l.anchors(d.Files)
	entry := LedgerEntry{
		At: d.At.UTC().Format(time.RFC3339Nano), Trigger: d.Verb, Codes: orEmpty(d.Codes), DomainAnchors: anchors,
		Files: orEmpty(d.Files), Counts: map[string]int{}, Strategy: d.Strategy, Session: d.Session,
		Work: d.Work, Agent: d.Agent, Seq: d.Seq,
	}
	var due []Signature
	for _, sig := range signaturesOf(d.Codes, anchors, d.Strategy) {
		l.counts[sig.Key()]++
		n := l.counts[sig.Key()]
		entry.Counts[sig.Key()] = n
		if n >= l.cfg.RejectionThreshold {
			due = append(due, sig)
		}
	}
	line, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	if err := l.appendLedger(append(line, '\n')); err != nil {
		return err
	}
	if len(due) == 0 {
		return nil
	}
	return OpenCandidates(l.res, due, d, l.counts, d.At)
}

func (l *Learner) anchors(files []string) []string {
	out := []string{}
	for _, f := range files {
		if a := AnchorOf(f, l.depth); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	if len(out) == 0 {
		out = append(out, "")
	}
	return out
}

// signaturesOf is every (code, anchor) pair of one denial under its
// strategy.
func signaturesOf(codes, anchors []string, strategy string) []Signature {
	var out []Signature
	for _, c := range codes {
		for _, a := range anchors {
			out = append(out, Signature{Code: c, Anchor: a, Strategy: strategy})
		}
	}
	return out
}

// appendLedger appends a line, first rotating the ledger to .1 when it has
// grown past its configured size.
func (l *Learner) appendLedger(line []byte) error {
	if f := l.res.Resolve(LedgerFile); f.Exists && f.Size+int64(len(line)) > l.cfg.FrictionLedgerMaxBytes {
		if err := l.res.Rename(LedgerFile, LedgerFile+".1"); err != nil {
			return err
		}
	}
	return l.res.AppendFile(LedgerFile, line, true)
}

// ReadLedger reads the ledger's entries, the rotated file's first.
func ReadLedger(res *pathscope.Resolver) []LedgerEntry {
	var out []LedgerEntry
	for _, name := range []string{LedgerFile + ".1", LedgerFile} {
		if !res.Resolve(name).Exists {
			continue
		}
		raw, err := res.ReadFile(name, 64<<20)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		for sc.Scan() {
			var e LedgerEntry
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				out = append(out, e)
			}
		}
	}
	return out
}

// countLedger rebuilds the counts so far from the ledger, so a restarted
// server keeps counting where the last one stopped.
func countLedger(res *pathscope.Resolver) map[string]int {
	counts := map[string]int{}
	for _, e := range ReadLedger(res) {
		for _, sig := range signaturesOf(e.Codes, e.DomainAnchors, e.Strategy) {
			counts[sig.Key()]++
		}
	}
	return counts
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
