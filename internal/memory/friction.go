package memory

import (
	"bufio"
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/anchor"
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
	// Rules and Remediations are each denial's rule id (the package path,
	// mcpc.rules.plan["weak-verification"]) and remediation, parallel to
	// Codes: the rule's family chooses a candidate's enforcement type and
	// its METADATA says why the pattern is wrong.
	Rules        []string
	Remediations []string
	Files        []string
	Nodes        []PlanNode
	Strategy     string
	// PlanStrategy is the knowledgeStrategyId a denied plan declared.
	PlanStrategy string
	Session      string
	Work         string
	Agent        string
	Seq          int
}

// AcceptedPlan is a plan policy accepted: its nodes are the "after" of the
// scaffolded few-shots learned from denied plans in the same domains.
type AcceptedPlan struct {
	At       time.Time
	Strategy string
	Work     string
	Nodes    []PlanNode
}

// PlanNode is what a few-shot scaffold cites of a plan node involved in a
// denial: its shape, never its free text.
type PlanNode struct {
	ID         string `json:"nodeId"`
	Kind       string `json:"kind"`
	TargetFile string `json:"targetFile,omitempty"`
	// Hooks are the validate node's verification hooks as recipe/command.
	Hooks []Hook `json:"verificationHooks,omitempty"`
}

// Hook is one verification hook of a plan node.
type Hook struct {
	RecipeID  string `json:"recipeId,omitempty"`
	CommandID string `json:"commandId,omitempty"`
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
	// Dropped counts the denials the learner's queue was too full to take
	// since the previous line of this server: they are not in the ledger,
	// and the retrospective says how many are missing.
	Dropped int64 `json:"dropped,omitempty"`
}

// DroppedTrigger is the trigger of the line a closing learner writes for
// drops no later denial's line carried.
const DroppedTrigger = "friction_dropped"

// Signature is the (code, domain anchor, strategy) a candidate learns from.
type Signature struct {
	Code     string `json:"code"`
	Anchor   string `json:"anchor"`
	Strategy string `json:"strategy"`
}

// Key is the signature as one string.
func (s Signature) Key() string { return s.Code + "|" + s.Anchor + "|" + s.Strategy }

// learnerQueue bounds the denials waiting for the learner; past it a
// denial is counted as dropped rather than held up (a hostile agent's
// flood of denials costs the server a counter).
const learnerQueue = 1024

// item is one thing the learner learns from: a denial or an accepted plan.
type item struct {
	denial *Denial
	plan   *AcceptedPlan
}

// Learner turns denials into ledger lines and candidates on its own
// goroutine, outside the turn's hot path.
type Learner struct {
	res      *pathscope.Resolver
	cfg      config.Memory
	anchors  anchor.Rules
	describe func(rule string) string
	log      zerolog.Logger
	ch       chan item
	wg       sync.WaitGroup
	mu       sync.Mutex // guards closed
	closed   bool
	dropped  atomic.Int64
	reported int64          // drops already written to the ledger (learner goroutine)
	counts   map[string]int // loaded from the ledger at the first denial
	// settled are the signatures past the threshold that records.json
	// (at stamp) already answers: a candidate open or rejected. Past the
	// threshold every denial would otherwise re-read the records to find
	// that out; any change of the file (a person's review, expire-check)
	// forgets them.
	settled map[string]bool
	stamp   recordsStamp
	idle    sync.Cond // signalled when the queue drains (Sync)
	pending atomic.Int64
}

// NewLearner starts a learner for the workspace. describe returns a rule's
// METADATA description (nil: none), which scaffolds say why a pattern is
// wrong with.
func NewLearner(res *pathscope.Resolver, cfg *config.Config, describe func(rule string) string, log zerolog.Logger) *Learner {
	l := newLearner(res, cfg, describe, log, learnerQueue)
	l.start()
	return l
}

func newLearner(res *pathscope.Resolver, cfg *config.Config, describe func(rule string) string, log zerolog.Logger, queue int) *Learner {
	if describe == nil {
		describe = func(string) string { return "" }
	}
	l := &Learner{res: res, cfg: cfg.Memory, anchors: AnchorRules(cfg), describe: describe, log: log, ch: make(chan item, queue)}
	l.idle.L = &sync.Mutex{}
	return l
}

func (l *Learner) start() {
	l.wg.Add(1)
	go l.run()
}

// AnchorRules are the graph's anchor rules (config graph.anchors): the
// learner keys friction with the graph's anchors.
func AnchorRules(cfg *config.Config) anchor.Rules {
	return anchor.Rules{MaxDepth: cfg.Graph.Anchors.MaxDepth, Exclude: cfg.Graph.Anchors.Exclude}.WithDefaults()
}

// Note hands a denial to the learner without waiting.
func (l *Learner) Note(d Denial) { l.enqueue(item{denial: &d}) }

// NoteAccepted hands an accepted plan to the learner without waiting.
func (l *Learner) NoteAccepted(p AcceptedPlan) { l.enqueue(item{plan: &p}) }

func (l *Learner) enqueue(it item) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.pending.Add(1)
	select {
	case l.ch <- it:
	default:
		l.pending.Add(-1)
		if it.denial != nil {
			l.dropped.Add(1)
		}
	}
}

// Dropped is how many denials this learner could not queue.
func (l *Learner) Dropped() int64 { return l.dropped.Load() }

// Unrecorded is how many dropped denials no ledger line reports yet (call
// after Sync).
func (l *Learner) Unrecorded() int64 {
	l.idle.L.Lock()
	defer l.idle.L.Unlock()
	return l.dropped.Load() - l.reported
}

// Sync waits until every denial noted so far has been learned from.
func (l *Learner) Sync() {
	l.idle.L.Lock()
	for l.pending.Load() > 0 {
		l.idle.Wait()
	}
	l.idle.L.Unlock()
}

// Close learns from what is queued, writes a line for drops no line
// reported, and stops.
func (l *Learner) Close() {
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.ch)
	}
	l.mu.Unlock()
	l.wg.Wait()
	if n := l.takeDropped(); n > 0 {
		if err := l.appendEntry(LedgerEntry{At: time.Now().UTC().Format(time.RFC3339Nano), Trigger: DroppedTrigger,
			Codes: []string{}, DomainAnchors: []string{}, Files: []string{}, Counts: map[string]int{}, Dropped: n}); err != nil {
			l.log.Warn().Err(err).Int64("dropped", n).Msg("dropped friction entries not recorded")
		}
	}
}

// takeDropped is the drops since the last line that reported some.
func (l *Learner) takeDropped() int64 {
	l.idle.L.Lock()
	defer l.idle.L.Unlock()
	n := l.dropped.Load() - l.reported
	l.reported += n
	return n
}

func (l *Learner) run() {
	defer l.wg.Done()
	for it := range l.ch {
		var err error
		if it.denial != nil {
			err = l.learn(*it.denial)
		} else {
			err = l.learnAccepted(*it.plan)
		}
		if err != nil {
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
	anchors := l.anchorsOf(d.Files)
	entry := LedgerEntry{
		At: d.At.UTC().Format(time.RFC3339Nano), Trigger: d.Verb, Codes: orEmpty(d.Codes), DomainAnchors: anchors,
		Files: orEmpty(d.Files), Counts: map[string]int{}, Strategy: d.Strategy, Session: d.Session,
		Work: d.Work, Agent: d.Agent, Seq: d.Seq, Dropped: l.takeDropped(),
	}
	if entry.Dropped > 0 {
		l.log.Warn().Int64("dropped", entry.Dropped).Msg("the friction queue was full; denials were not recorded")
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
	if err := l.appendEntry(entry); err != nil {
		return err
	}
	if len(due) == 0 {
		return nil
	}
	if st := stampOf(l.res); st != l.stamp || l.settled == nil {
		l.settled, l.stamp = map[string]bool{}, st
	}
	due = slices.DeleteFunc(due, func(s Signature) bool { return l.settled[s.Key()] })
	if len(due) == 0 {
		return nil
	}
	st, err := openCandidates(l.res, due, d, l.counts, l.scaffolder(), d.At)
	if err != nil {
		return err
	}
	if st != l.stamp {
		l.settled, l.stamp = map[string]bool{}, st
	}
	for _, s := range due {
		l.settled[s.Key()] = true
	}
	return nil
}

func (l *Learner) appendEntry(e LedgerEntry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return l.appendLedger(append(line, '\n'))
}

func (l *Learner) anchorsOf(files []string) []string {
	out := []string{}
	for _, f := range files {
		if a := l.anchors.Of(f); !slices.Contains(out, a) {
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
