package controller

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/memory"
	"github.com/mcpc/mcpc/internal/store"
)

// memoryLifecycleFacts is input.memoryLifecycle: config's windows
// lib/memory decides each record's state with, on the decision's one
// clock (input.enforcement.now).
type memoryLifecycleFacts = memory.Lifecycle

// gatherLifecycle gives the verbs that gather input.enforcement the
// windows, so the one activation decision (the pack's activeMemories and
// memories, plan_rules, strategy signals) reads the records on the clock.
func (c *Controller) gatherLifecycle(t *turn) {
	if t.in.Enforcement.Gathered {
		t.in.MemoryLifecycle = memory.LifecycleOf(c.cfg.Memory)
	}
}

// describeRule is a rule's METADATA description from the policies in
// force, for the scaffolds that say why a pattern is wrong; "" when the
// engine cannot tell.
func (c *Controller) describeRule(rule string) string {
	var docs map[string]engine.RuleDoc
	switch e := c.engine.(type) {
	case interface{ Current() *engine.Engine }:
		if cur := e.Current(); cur != nil {
			docs = cur.RuleDocs()
		}
	case interface {
		RuleDocs() map[string]engine.RuleDoc
	}:
		docs = e.RuleDocs()
	}
	return docs[rule].Description
}

// maxLearnedNodes bounds the plan nodes one turn hands the learner.
const maxLearnedNodes = 64

// noteFriction hands a denied turn (or an accepted plan) to the learner,
// which writes the friction ledger and opens or completes candidates on
// its own goroutine: the turn pays for building a small struct and a
// channel send.
func (c *Controller) noteFriction(t *turn) {
	if c.learn == nil {
		return
	}
	if t.dec.allowed() {
		if t.req.Verb == "submit_execution_plan" && t.work != nil {
			strategy := t.in.Envelope.strategyID()
			c.learn.NoteAccepted(memory.AcceptedPlan{At: c.now(), Strategy: strategy, Work: t.work.ID, Nodes: learnedNodes(t.in.Submission)})
		}
		return
	}
	if len(t.dec.Denials) == 0 {
		return
	}
	d := memory.Denial{At: c.now(), Verb: t.req.Verb, Session: t.req.RunSessionID, Seq: t.seq}
	for _, den := range t.dec.Denials {
		d.Codes = append(d.Codes, den.Code)
		d.Messages = append(d.Messages, den.Message)
		d.Rules = append(d.Rules, den.Rule)
		d.Remediations = append(d.Remediations, den.Remediation)
	}
	if t.work != nil {
		d.Work, d.Session = t.work.ID, t.work.RunSessionID
		d.Strategy = t.in.Envelope.strategyID()
	}
	if t.agent != nil {
		d.Agent = t.agent.ID
	}
	for _, pf := range t.in.Paths {
		if pf.Canonical != "" && !slices.Contains(d.Files, pf.Canonical) {
			d.Files = append(d.Files, pf.Canonical)
		}
	}
	d.PlanStrategy, _ = t.in.Submission["knowledgeStrategyId"].(string)
	d.Nodes = learnedNodes(t.in.Submission)
	for _, n := range d.Nodes {
		if n.TargetFile != "" && !slices.Contains(d.Files, n.TargetFile) {
			d.Files = append(d.Files, n.TargetFile)
		}
	}
	slices.Sort(d.Files)
	c.learn.Note(d)
}

// learnedNodes are what a few-shot cites of a submitted plan's nodes.
func learnedNodes(submission map[string]any) []memory.PlanNode {
	nodes, _ := submission["nodes"].([]any)
	out := make([]memory.PlanNode, 0, min(len(nodes), maxLearnedNodes))
	for _, n := range nodes[:min(len(nodes), maxLearnedNodes)] {
		m, _ := n.(map[string]any)
		s := func(m map[string]any, k string) string { v, _ := m[k].(string); return v }
		node := memory.PlanNode{ID: s(m, "nodeId"), Kind: s(m, "kind"), TargetFile: s(m, "targetFile")}
		hooks, _ := m["verificationHooks"].([]any)
		for _, h := range hooks[:min(len(hooks), 4)] {
			hm, _ := h.(map[string]any)
			params, _ := hm["params"].(map[string]any)
			node.Hooks = append(node.Hooks, memory.Hook{RecipeID: s(hm, "recipeId"), CommandID: s(params, "commandId")})
		}
		out = append(out, node)
	}
	return out
}

// fewShot is one active few-shot as lib/memory returns it.
type fewShot struct {
	ID      string         `json:"id"`
	Folders []string       `json:"folders"`
	FewShot map[string]any `json:"fewShot"`
}

// fewShotCache keeps lib/memory's active few-shots between
// trace_symbol_graph turns: deciding them reads and evaluates every record,
// which a read turn must not pay each time. An entry holds while
// records.json and the policies are the ones it was decided on and the
// clock is before the validUntil policy gave (the next window end or
// expiry).
type fewShotCache struct {
	mu      sync.Mutex
	ok      bool
	stamp   memory.Stamp
	version string
	until   time.Time // zero: no edge ahead
	shots   []fewShot
}

func (fc *fewShotCache) get(stamp memory.Stamp, version string, now time.Time) ([]fewShot, bool) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if !fc.ok || fc.stamp != stamp || fc.version != version || (!fc.until.IsZero() && !now.Before(fc.until)) {
		return nil, false
	}
	return fc.shots, true
}

func (fc *fewShotCache) put(stamp memory.Stamp, version string, until time.Time, shots []fewShot) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	fc.ok, fc.stamp, fc.version, fc.until, fc.shots = true, stamp, version, until, shots
}

// activeFewShots are the active few-shots lib/memory decides on the
// clock, from the cache while it holds.
func (c *Controller) activeFewShots(ctx context.Context) []fewShot {
	stamp, version, now := memory.StampOf(c.paths), c.engine.Version(), c.now()
	if shots, ok := c.fewShots.get(stamp, version, now); ok {
		return shots
	}
	records, err := memory.Load(c.paths)
	if err != nil {
		c.log.Warn().Err(err).Msg("memory records unreadable; no few-shots")
		return nil
	}
	var out struct {
		FewShots   []fewShot `json:"fewShots"`
		ValidUntil string    `json:"validUntil"`
	}
	if err := c.engine.EvaluateQuery(ctx, engine.LifecycleQuery, memory.NewPolicyDoc(records, now, c.cfg.Memory), &out); err != nil {
		c.log.Error().Err(err).Msg("memory lifecycle policy failed; no few-shots")
		return nil
	}
	var until time.Time
	if out.ValidUntil != "" {
		if until, err = time.Parse(time.RFC3339Nano, out.ValidUntil); err != nil {
			return out.FewShots // an answer policy cannot date is not kept
		}
	}
	c.fewShots.put(stamp, version, until, out.FewShots)
	return out.FewShots
}

// maxFewShots bounds the few-shots one trace_symbol_graph answer carries
// (in lib/memory's id order): examples are for reading, and a records file
// of thousands must not grow every trace answer with it.
const maxFewShots = 8

// injectFewShots adds to a trace_symbol_graph result the active few-shots
// (decided by lib/memory) whose domain covers a file the result reaches.
func (c *Controller) injectFewShots(ctx context.Context, t *turn) {
	if !c.paths.Resolve(memory.RecordsFile).Exists {
		return
	}
	roots, _ := t.result["roots"].([]string)
	edges, _ := t.result["edges"].([]Edge)
	files := slices.Clone(roots)
	for _, e := range edges {
		files = append(files, e.From, e.To)
	}
	if len(files) == 0 {
		return
	}
	shots := []map[string]any{}
	for _, fs := range c.activeFewShots(ctx) {
		if len(shots) == maxFewShots {
			break
		}
		if slices.ContainsFunc(files, func(f string) bool { return coveredBy(f, fs.Folders) }) {
			shots = append(shots, map[string]any{"memoryId": fs.ID, "fewShot": fs.FewShot})
		}
	}
	if len(shots) > 0 {
		t.result["fewShots"] = shots
	}
}

// coveredBy reports whether a file lies in one of the folders; no folders
// is the whole workspace.
func coveredBy(file string, folders []string) bool {
	if len(folders) == 0 {
		return true
	}
	for _, f := range folders {
		if f == "" || len(file) > len(f) && file[len(f)] == '/' && file[:len(f)] == f {
			return true
		}
	}
	return false
}

// maxRetroDecisions bounds the decisions a retrospective reads (the most
// recent ones).
const maxRetroDecisions = 500

// retrospective adds seed 002's session retrospective to a completed
// work's result, once the learner has written every denial so far. It
// runs once the turn's transaction committed, never under the store's
// lock: the work's decisions (this turn's among them) are read from a
// snapshot, and decoding up to maxRetroDecisions records, the friction
// ledger and the memory file holds nothing another turn waits for.
func (c *Controller) retrospective(ctx context.Context, t *turn) {
	if t.in.State == "COMPLETED" {
		return // once, on completion: a completed work's repeated signal costs nothing
	}
	if c.learn != nil {
		c.learn.Sync()
	}
	stats := memory.SessionStats{Verbs: map[string]int{}, Reads: map[string]int{}}
	err := c.store.View(ctx, func(tx *store.Tx) error {
		seqs, err := tx.DecisionSeqs(ctx, t.work.ID)
		if err != nil {
			return err
		}
		for _, seq := range seqs[max(0, len(seqs)-maxRetroDecisions):] {
			raw, err := tx.Decision(ctx, t.work.ID, seq)
			if err != nil {
				continue
			}
			countDecision(&stats, raw)
		}
		return nil
	})
	if err != nil {
		c.log.Warn().Err(err).Msg("retrospective: decisions unreadable")
	}
	in := memory.RetroInput{Work: t.work.ID, Stats: stats, Anchors: memory.AnchorRules(c.cfg), Threshold: c.cfg.Memory.RejectionThreshold, Now: c.now()}
	if c.learn != nil {
		in.Unrecorded = c.learn.Unrecorded()
	}
	r, err := memory.Retrospect(c.paths, in)
	if err != nil {
		c.log.Warn().Err(err).Msg("retrospective incomplete")
	}
	t.result["retrospective"] = r
}

// countDecision adds one decision record to a retrospective's statistics.
func countDecision(stats *memory.SessionStats, raw []byte) {
	var rec struct {
		Verb  string `json:"verb"`
		Input struct {
			Paths map[string]pathFacts `json:"paths"`
		} `json:"input"`
		Result struct {
			Allow bool `json:"allow"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &rec) != nil {
		return
	}
	stats.Turns++
	stats.Verbs[rec.Verb]++
	if !rec.Result.Allow {
		stats.Rejections++
		return
	}
	if rec.Verb == "read_file_lines" || rec.Verb == "trace_symbol_graph" || rec.Verb == "lookup_symbol_definition" {
		for _, pf := range rec.Input.Paths {
			if pf.Canonical != "" {
				stats.Reads[pf.Canonical]++
			}
		}
	}
}
