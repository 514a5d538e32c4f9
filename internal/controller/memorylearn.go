package controller

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/memory"
	"github.com/mcpc/mcpc/internal/store"
)

// memoryLifecycleFacts is input.memoryLifecycle: the clock and the
// windows lib/memory decides a record's state and activity with.
type memoryLifecycleFacts struct {
	Now                    string   `json:"now"`
	ContestWindowHours     int      `json:"contestWindowHours"`
	ProvisionalWindowHours int      `json:"provisionalWindowHours"`
	AutoPromotable         []string `json:"autoPromotable"`
}

func (c *Controller) lifecycleFacts() memoryLifecycleFacts {
	m := c.cfg.Memory
	return memoryLifecycleFacts{
		Now: c.now().UTC().Format(time.RFC3339), ContestWindowHours: m.ContestWindowHours,
		ProvisionalWindowHours: m.ProvisionalWindowHours, AutoPromotable: orEmpty(m.AutoPromotable),
	}
}

// gatherLifecycle gives the pack verbs the clock and windows, so the
// decision lists the active memories of the pack's domains.
func (c *Controller) gatherLifecycle(t *turn) {
	if t.in.Enforcement.Gathered {
		t.in.MemoryLifecycle = c.lifecycleFacts()
	}
}

// noteFriction hands a denied turn to the learner, which writes the
// friction ledger and opens candidates on its own goroutine: the turn
// pays for building a small struct and a channel send.
func (c *Controller) noteFriction(t *turn) {
	if c.learn == nil || t.dec.allowed() || len(t.dec.Denials) == 0 {
		return
	}
	d := memory.Denial{At: c.now(), Verb: t.req.Verb, Session: t.req.RunSessionID, Seq: t.seq}
	for _, den := range t.dec.Denials {
		d.Codes = append(d.Codes, den.Code)
		d.Messages = append(d.Messages, den.Message)
	}
	if t.work != nil {
		d.Work, d.Session = t.work.ID, t.work.RunSessionID
		d.Strategy, _ = t.in.Envelope["knowledgeStrategyId"].(string)
	}
	if t.agent != nil {
		d.Agent = t.agent.ID
	}
	for _, pf := range t.in.Paths {
		if pf.Canonical != "" && !slices.Contains(d.Files, pf.Canonical) {
			d.Files = append(d.Files, pf.Canonical)
		}
	}
	nodes, _ := t.in.Submission["nodes"].([]any)
	for _, n := range nodes[:min(len(nodes), 64)] {
		m, _ := n.(map[string]any)
		s := func(k string) string { v, _ := m[k].(string); return v }
		node := memory.PlanNode{ID: s("nodeId"), Kind: s("kind"), TargetFile: s("targetFile"), EditIntent: s("editIntent")}
		d.Nodes = append(d.Nodes, node)
		if node.TargetFile != "" && !slices.Contains(d.Files, node.TargetFile) {
			d.Files = append(d.Files, node.TargetFile)
		}
	}
	slices.Sort(d.Files)
	c.learn.Note(d)
}

// fewShot is one active few-shot as lib/memory returns it.
type fewShot struct {
	ID      string         `json:"id"`
	Folders []string       `json:"folders"`
	FewShot map[string]any `json:"fewShot"`
}

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
	records, err := memory.Load(c.paths)
	if err != nil {
		c.log.Warn().Err(err).Msg("memory records unreadable; no few-shots")
		return
	}
	doc := map[string]any{
		"memoryLifecycle": c.lifecycleFacts(),
		"enforcement":     map[string]any{"memories": records[:min(len(records), memory.MaxRecords)]},
	}
	var out struct {
		FewShots []fewShot `json:"fewShots"`
	}
	if err := c.engine.EvaluateQuery(ctx, engine.LifecycleQuery, doc, &out); err != nil {
		c.log.Error().Err(err).Msg("memory lifecycle policy failed; no few-shots")
		return
	}
	shots := []map[string]any{}
	for _, fs := range out.FewShots {
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
// recent ones): it runs under the store's write lock.
const maxRetroDecisions = 500

// retrospective adds seed 002's session retrospective to a completed
// work's result, once the learner has written every denial so far.
func (c *Controller) retrospective(ctx context.Context, tx *store.Tx, t *turn) {
	if t.in.State == "COMPLETED" {
		return // once, on completion: a completed work's repeated signal costs nothing
	}
	if c.learn != nil {
		c.learn.Sync()
	}
	stats := memory.SessionStats{Verbs: map[string]int{}, Reads: map[string]int{}}
	seqs, err := tx.DecisionSeqs(ctx, t.work.ID)
	if err != nil {
		c.log.Warn().Err(err).Msg("retrospective: decisions unreadable")
	}
	for _, seq := range seqs[max(0, len(seqs)-maxRetroDecisions):] {
		raw, err := tx.Decision(ctx, t.work.ID, seq)
		if err != nil {
			continue
		}
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
			continue
		}
		stats.Turns++
		stats.Verbs[rec.Verb]++
		if !rec.Result.Allow {
			stats.Rejections++
			continue
		}
		if rec.Verb == "read_file_lines" || rec.Verb == "trace_symbol_graph" || rec.Verb == "lookup_symbol_definition" {
			for _, pf := range rec.Input.Paths {
				if pf.Canonical != "" {
					stats.Reads[pf.Canonical]++
				}
			}
		}
	}
	// This turn is not recorded yet.
	stats.Turns++
	stats.Verbs[t.req.Verb]++
	r, err := memory.Retrospect(c.paths, t.work.ID, stats, c.cfg.Graph.Anchors.MaxDepth, c.cfg.Memory.RejectionThreshold, c.now())
	if err != nil {
		c.log.Warn().Err(err).Msg("retrospective incomplete")
	}
	t.result["retrospective"] = r
}
