package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpc/mcpc/internal/store"
)

// execute carries out an allowed decision, then its state transition.
func (c *Controller) execute(ctx context.Context, tx *store.Tx, t *turn) error {
	if err := c.executeVerb(ctx, tx, t); err != nil {
		return err
	}
	if len(t.in.Execution.Failures) > 0 {
		// Nothing was written: policy judges the failure (EXEC_FAILED), and
		// the recorded decision is that one.
		last := t.stages[len(t.stages)-1]
		c.decide(ctx, t, stageExecution, last.Query)
		if !t.dec.allowed() {
			t.afterTx = nil
			return nil
		}
	}
	return c.transition(ctx, tx, t)
}

func (c *Controller) executeVerb(ctx context.Context, tx *store.Tx, t *turn) error {
	switch t.req.Verb {
	case "initialize_work":
		return c.initializeWork(ctx, tx, t)
	case "escalate":
		return c.escalate(ctx, tx, t)
	case "read_file_lines":
		return c.readFileLines(ctx, tx, t)
	case "search_codebase_text":
		// The search reads only pack files and writes nothing to the store:
		// it runs once the lock is released, under its own deadline.
		t.afterTx = func(context.Context) { c.searchText(t) }
	case "lookup_symbol_definition":
		c.lookupSymbol(t)
	case "trace_symbol_graph":
		c.traceSymbolGraph(t)
		c.injectFewShots(ctx, t)
	case "write_scratch_file":
		return c.writeScratch(t)
	case "submit_execution_plan":
		return c.acceptPlan(ctx, tx, t)
	case "apply_code_patch":
		return c.applyPatch(ctx, tx, t)
	case "run_automation_recipe":
		return c.runRecipe(ctx, tx, t)
	case "signal_task_complete":
		c.complete(t)
		// After the commit, which records this turn too: not under the lock.
		t.afterTx = func(ctx context.Context) { c.retrospective(ctx, t) }
		return tx.ReleaseWork(ctx, t.work.ID)
	case "execute_gated_side_effect":
		return c.runSideEffect(ctx, tx, t)
	case "run_sandboxed_code":
		c.runSandboxed(t)
	default:
		// Policy allowed a verb Go cannot execute: a recorded denial,
		// rather than an allowed turn that did nothing.
		t.fail("not_executable", "verb", fmt.Sprintf("%s has no executor in this build", t.req.Verb))
	}
	return nil
}

// transition persists the decision's workState. The agent-facing nextState
// may be BLOCKED_BUDGET, which is per agent and never the work's state.
func (c *Controller) transition(ctx context.Context, tx *store.Tx, t *turn) error {
	if t.work == nil || t.dec.WorkState == "" || t.dec.WorkState == t.work.State {
		return nil
	}
	t.work.State = t.dec.WorkState
	return tx.PutWork(ctx, t.work)
}

// initializeWork mints the work, ingests attachments and writes the pack.
func (c *Controller) initializeWork(ctx context.Context, tx *store.Tx, t *turn) error {
	runID := t.req.RunSessionID
	if runID == "" {
		runID = newID("run")
	}
	w := &store.Work{
		ID: newID("work"), RunSessionID: runID, State: t.dec.WorkState, Prompt: t.req.OriginalPrompt,
		Lexemes: t.in.Lexemes, RepoSnapshotID: t.gitRev,
	}
	strategy := t.dec.Strategy
	if strategy == nil {
		strategy = map[string]any{}
	}
	w.Strategy, _ = json.Marshal(strategy)
	atts, writeAttachments, err := c.storeAttachments(w.ID, t.args["attachments"])
	if err != nil {
		return err
	}
	atts, copyInbox := c.inboxAttachments(w.ID, atts)
	p := &packDoc{
		WorkID: w.ID, Ref: packRef(w.ID, 0), Prompt: w.Prompt, Lexemes: w.Lexemes,
		Files: []string{}, Ranking: []rankEntry{}, Policies: orEmpty(t.dec.Policies), Memories: orEmpty(t.dec.Memories),
		Attachments: atts, Excluded: orEmpty(t.dec.Pack.Excluded), Outcome: orDefault(t.dec.Outcome, "ok"),
	}
	if err := c.requirementAttachments(p, t.requirements); err != nil {
		return err
	}
	c.addFiles(p, t.dec.Pack.Files, t.in.Candidates)
	p.ActiveMemories = orEmpty(t.dec.ActiveMemories)
	p.Symbols, p.Usages = c.symbolsFor(p.Files)
	p.ProofChains = chainsWithin(t.proofChains, p.Files)
	// The document is encoded and hashed here, for the store to name and
	// keep it, and its file written (temporary file, fsync, rename) once
	// the work is committed, with the attachments: the new work's folder is
	// no other turn's to read before this one answers, a turn rolled back
	// at the lock's bound leaves nothing behind, and a process that dies
	// before the writes leaves them to the next (RestoreWorkFiles).
	raw, err := c.commitPack(ctx, tx, w, p)
	if err != nil {
		return err
	}
	t.afterTx = func(ctx context.Context) {
		if c.publishPack(ctx, t, p, raw) {
			writeAttachments()
			copyInbox()
		}
	}
	// The agent keeps a client-supplied id; otherwise the minted one.
	t.work = w
	t.agent = &store.Agent{WorkID: w.ID, ID: t.agent.ID}
	t.nodes = nil
	t.in.Pack = packFacts{Ref: p.Ref, Hash: p.Hash, Files: p.Files}
	t.pack = p
	return nil
}

// escalate grows the pack monotonically with what policy allowed.
func (c *Controller) escalate(ctx context.Context, tx *store.Tx, t *turn) error {
	var sum packSummary
	if err := json.Unmarshal(t.work.Pack, &sum); err != nil {
		return err
	}
	p, err := c.packOf(ctx, tx, t, sum)
	if err != nil {
		c.log.Warn().Err(err).Str("pack", sum.Ref).Msg("pack document not readable")
		t.fail("io_error", "args", "the work's context pack could not be read")
		return nil
	}
	added := c.addFiles(p, t.dec.Pack.Files, t.in.Candidates)
	syms, usages := c.symbolsFor(added)
	p.Symbols = append(p.Symbols, syms...)
	p.Usages = append(p.Usages, usages...)
	p.Excluded = appendExcluded(p.Excluded, t.dec.Pack.Excluded)
	p.ActiveMemories = orEmpty(t.dec.ActiveMemories)
	if len(t.dec.Policies) > 0 { // gathered over the grown pack: a superset
		p.Policies, p.Memories = t.dec.Policies, orEmpty(t.dec.Memories)
	}
	// A new version under a name of its own (packversions.go), written
	// once the turn committed.
	p.Escalations++
	p.Ref = packRef(t.work.ID, p.Escalations)
	raw, err := c.commitPack(ctx, tx, t.work, p)
	if err != nil {
		return err
	}
	t.afterTx = func(ctx context.Context) { c.publishPack(ctx, t, p, raw) }
	if id, ok := t.args["planNodeId"].(string); ok && id != "" {
		if err := c.setStatus(ctx, tx, t, id, statusResolved); err != nil {
			return err
		}
	}
	t.pack = p
	t.result["added"] = map[string]any{"files": orEmpty(added), "symbols": syms}
	if len(added) == 0 {
		t.result["note"] = "nothing new matched the need; rephrase it with file names, symbols or lexemes"
	}
	return nil
}

// acceptPlan stores an accepted PlanGraph and resets node progress. The
// plan arrives decoded (input.submission): each node is marshaled once for
// its row, and the stored plan document reuses those bytes.
func (c *Controller) acceptPlan(ctx context.Context, tx *store.Tx, t *turn) error {
	list, _ := t.in.Submission["nodes"].([]any)
	nodes := make([]store.Node, 0, len(list))
	bodies := make([]json.RawMessage, 0, len(list))
	for i, v := range list {
		m, _ := v.(map[string]any)
		body, err := json.Marshal(m)
		if err != nil {
			return err
		}
		id, _ := m["nodeId"].(string)
		kind, _ := m["kind"].(string)
		target, _ := m["targetFile"].(string)
		nodes = append(nodes, store.Node{NodeID: id, Ord: i, Kind: kind, Status: statusPending,
			TargetFile: target, MapsTo: stringList(m["mapsToNodeIds"]), Body: body})
		bodies = append(bodies, body)
	}
	doc := maps.Clone(t.in.Submission)
	doc["nodes"] = bodies
	raw, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if err := tx.SetPlan(ctx, t.work.ID, raw); err != nil {
		return err
	}
	if err := tx.ReplaceNodes(ctx, t.work.ID, nodes); err != nil {
		return err
	}
	// An approval was given for the side effect of the plan a person saw;
	// the new plan's side effects need their own.
	if err := tx.ClearGates(ctx, t.work.ID); err != nil {
		return err
	}
	t.nodes = nodes
	t.result["accepted"] = true
	t.result["nodes"] = len(nodes)
	return tx.PutWork(ctx, t.work)
}

// setStatus records a node's status in the store and in the turn's view.
func (c *Controller) setStatus(ctx context.Context, tx *store.Tx, t *turn, nodeID, status string) error {
	return c.startRun(ctx, tx, t, nodeID, status, "")
}

// startRun is setStatus for a run that goes on after the turn (a
// validation command), under the token its outcome is recorded with.
func (c *Controller) startRun(ctx context.Context, tx *store.Tx, t *turn, nodeID, status, run string) error {
	if err := tx.StartRun(ctx, t.work.ID, nodeID, status, run); err != nil {
		return err
	}
	for i := range t.nodes {
		if t.nodes[i].NodeID == nodeID {
			t.nodes[i].Status = status
		}
	}
	return nil
}

// complete summarises the work for the retrospective.
func (c *Controller) complete(t *turn) {
	t.result["completed"] = true
	if s, ok := t.args["summary"].(string); ok {
		t.result["summary"] = s
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// appendExcluded adds the exclusions a decision reported that the pack does
// not list yet: every escalate reports its candidates' again.
func appendExcluded(have, more []map[string]any) []map[string]any {
	for _, e := range more {
		if !slices.ContainsFunc(have, func(h map[string]any) bool { return h["file"] == e["file"] }) {
			have = append(have, e)
		}
	}
	return have
}
