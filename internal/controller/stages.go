package controller

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/secrets"
	"github.com/mcpc/mcpc/internal/store"
)

// A turn is decided in stages (docs/policy-input.md, "Stages"):
//
//   - request: request, gate and scope rules on cheap facts (state, budget,
//     canonical paths, pack membership), data.mcpc.main.stage1. It says
//     whether the verb has a second stage (verbStage).
//   - verb: only when the first stage allows and asks for it, the verb's
//     facts are gathered (patch dry run, ranking, hashes, reads) and
//     data.mcpc.main.decision judges every category the verb names.
//   - execution: when executing an allowed decision fails before anything
//     is written (an I/O error, a file that changed since the dry run), the
//     last stage's query is evaluated again with input.execution, and a rule
//     denies the turn with a recorded, structured denial.
//
// Facts that cost time (ranking, escalation search, the patch dry run, index
// refresh, git) are gathered outside the store's write lock, under a
// deadline, and only when a preview of the first stage on a read snapshot
// allows the turn; the write transaction evaluates the first stage again on
// what it holds, re-checks the prefetched facts and executes.
const (
	stageRequest   = "request"
	stageVerb      = "verb"
	stageExecution = "execution"

	queryStage1   = "data.mcpc.main.stage1"
	queryDecision = "data.mcpc.main.decision"
)

// stageRecord is one evaluation of a turn, as the decision record keeps it.
type stageRecord struct {
	Name   string          `json:"name"`
	Query  string          `json:"query"`
	Input  json.RawMessage `json:"input"`
	Result json.RawMessage `json:"result"`
}

// prefetchedVerbs gather facts that cost time: they are gathered outside
// the write lock once a preview of the first stage allows the turn
// (submit_execution_plan: the knowledge graph's facts, when there is a
// graph to ask).
var prefetchedVerbs = map[string]bool{"initialize_work": true, "escalate": true, "apply_code_patch": true,
	"run_automation_recipe": true, "run_sandboxed_code": true, "submit_execution_plan": true}

// gatherOutsideLock previews the first stage on a read snapshot and, when it
// allows the turn, gathers the verb's expensive facts with a deadline. A
// turn the first stage refuses costs no ranking, no search and no dry run.
func (c *Controller) gatherOutsideLock(ctx context.Context, t *turn) error {
	if !prefetchedVerbs[t.req.Verb] || (t.req.Verb == "submit_execution_plan" && c.domain == nil) {
		return nil
	}
	pv := &turn{req: t.req, args: t.args, in: t.in, result: map[string]any{}}
	pv.in.Paths = map[string]pathFacts{}
	pv.in.Request.Errors = slices.Clip(pv.in.Request.Errors)
	err := c.store.View(ctx, func(tx *store.Tx) error {
		if err := c.load(ctx, tx, pv); err != nil {
			return err
		}
		return c.gatherFirst(ctx, tx, pv)
	})
	// The preview charges nothing: the answers it took are the turn's.
	c.budget.giveBack(c.budget.session(ctx), pv)
	if err != nil {
		return err
	}
	var dec decision
	pv.in.Stage = stageRequest
	if _, _, err := c.engine.EvaluateStage1(ctx, &pv.in, &dec); err != nil || !dec.allowed() || !dec.VerbStage {
		return nil // the transaction evaluates again and records why
	}
	// Each step has its own deadline: a slow git must not leave ranking no
	// time at all. It is not the lock's bound, which this work does not
	// hold (a store.lockTimeoutMs set low to keep holds short must not make
	// a large file's dry run impossible), only at least as long.
	step := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.WithoutCancel(ctx), max(c.cfg.LockTimeout(), outsideLockStep))
	}
	switch t.req.Verb {
	case "run_sandboxed_code":
		// The code runs under its own limits (timeoutMs), never in the lock.
		c.prefetchSandboxedCode(ctx, t)
	case "run_automation_recipe":
		t.gitRev = gitHead(c.root) // the revision the trace ledger records
	case "apply_code_patch":
		t.gitRev = gitHead(c.root) // the revision the trace ledger records
		if pf, ok := pv.in.Paths["targetFile"]; ok {
			gctx, cancel := step()
			t.dry = c.tryPatch(gctx, pv, pf)
			cancel()
			c.stagePatch(t.dry, pf)
		}
	case "initialize_work":
		// Tickets and API operations are fetched (under the connectors' own
		// time budget) while the index refreshes; ranking reads them.
		requirements := c.reqs.Start(ctx, t.req.OriginalPrompt, stringList(t.args["lexemes"]), attachmentText(t.args["attachments"]))
		c.ingestOverrides(t) // before ranking reads the memories (seed 000 §15, gotcha 3)
		reportProgress(ctx, 0, 3, "refreshing the code index")
		gctx, cancel := step()
		c.refreshIndex(gctx)
		cancel()
		// The sync is a step of its own: sharing the refresh's deadline, a
		// large tree's refresh and build (48,000 files: 2 s and more on a
		// loaded machine) outran it, and every turn built the graph again
		// only to fail before writing it.
		// The snapshot id runs two git commands (at 47,550 files `git
		// status` stats every tracked file: 50-110 ms of waiting); nothing
		// before the pack reads it, so it runs beside the sync and ranking.
		snapshot := make(chan string, 1)
		go func() { snapshot <- repoSnapshotID(c.root, c.index) }() // outside git, a hash of the refreshed index
		// Ranking reads only the index, so it runs beside the sync, which
		// after a change takes the other core (a new process's first turn
		// after one edit at 47,870 files: 0.35 CPU-s of sync beside 0.2 of
		// ranking); the proof chains walk the graph and wait for it, each
		// part under a step of its own as before.
		synced := make(chan struct{})
		go func() {
			defer close(synced)
			gctx, cancel := step()
			defer cancel()
			c.syncGraph(gctx) // never inside the transaction: a graph write needs the database's write lock
		}()
		t.requirements = requirements()
		reportProgress(ctx, 1, 3, "ranking files for the prompt")
		gctx, cancel = step()
		failpointStall(gctx, "rank") // the tests' ranking that outruns its deadline on any machine
		cands := c.rankIndex(gctx, t)
		expired := gctx.Err() != nil
		cancel()
		<-synced
		gctx, cancel = step()
		c.finishRanking(gctx, t, cands)
		t.in.Pack.RankingCutShort = cutShort(expired || gctx.Err() != nil, max(c.cfg.LockTimeout(), outsideLockStep), t.in.Candidates)
		cancel()
		t.gitRev = <-snapshot
		reportProgress(ctx, 2, 3, "deciding the context pack")
	case "escalate":
		c.prefetchPack(ctx, t, pv) // up to 64 MB to read and decode: not under the lock
		reportProgress(ctx, 0, 3, "refreshing the code index")
		gctx, cancel := step()
		c.refreshIndex(gctx)
		cancel()
		reportProgress(ctx, 1, 3, "searching for the need")
		gctx, cancel = step()
		c.searchEscalation(gctx, t, pv.in.Pack.Files)
		t.in.Pack.RankingCutShort = cutShort(gctx.Err() != nil, max(c.cfg.LockTimeout(), outsideLockStep), t.in.Candidates)
		c.prefetchEscalationFacts(gctx, pv, t)
		cancel()
		reportProgress(ctx, 2, 3, "deciding what the pack gains")
	case "submit_execution_plan":
		gctx, cancel := step()
		c.prefetchPlanFacts(gctx, pv, t) // the graph's facts about the plan's targets
		cancel()
	}
	t.prefetched = true
	return nil
}

// cutShort is the fact of a ranking that ran out of its step's deadline
// (limit), or whose candidates' secret scan ran out of its budget; nil when
// it ran in time.
func cutShort(expired bool, limit time.Duration, cands []Candidate) *rankingCutShort {
	unscanned := 0
	for _, cd := range cands {
		if slices.Contains(cd.SecretFindings, secrets.IncompleteRule) {
			unscanned++
		}
	}
	if !expired && unscanned == 0 {
		return nil
	}
	return &rankingCutShort{LimitMs: int(limit / time.Millisecond), Ranked: len(cands), Unscanned: unscanned}
}

// outsideLockStep is the least time a step gathered outside the lock has.
const outsideLockStep = 2 * time.Second

// rank orders the index for initialize_work's prompt.
func (c *Controller) rank(ctx context.Context, t *turn) {
	c.finishRanking(ctx, t, c.rankIndex(ctx, t))
}

// rankIndex ranks the index's files for the prompt; it reads no graph.
func (c *Controller) rankIndex(ctx context.Context, t *turn) []Candidate {
	c.ingestOverrides(t) // before memories are queried (seed 000 §15, gotcha 3)
	cands, err := c.index.Rank(ctx, RankQuery{
		Prompt: t.req.OriginalPrompt, Lexemes: stringList(t.args["lexemes"]),
		Attachments: append(attachmentText(t.args["attachments"]), t.requirements.RankTexts()...), Limit: c.cfg.Pack.MaxFiles * 2,
		MemoryAnchors: c.memoryAnchors(ctx),
	})
	if err != nil {
		c.log.Warn().Err(err).Msg("ranking failed; the pack is chosen from what was ranked")
	}
	return cands
}

// finishRanking adds the proof chains' files and the graph facts to the
// ranked candidates and scans them for secrets.
func (c *Controller) finishRanking(ctx context.Context, t *turn, cands []Candidate) {
	cands = c.withProofChains(ctx, t, cands)
	c.markSecrets(ctx, cands)
	t.in.Candidates = orEmpty(cands)
}

// searchEscalation finds escalate's candidates outside the pack.
func (c *Controller) searchEscalation(ctx context.Context, t *turn, packFiles []string) {
	exclude := make(map[string]bool, len(packFiles))
	for _, f := range packFiles {
		exclude[f] = true
	}
	cands, err := c.index.Search(ctx, escalationNeed(t.args), exclude, c.cfg.Pack.EscalateMaxFiles*2)
	if err != nil {
		c.log.Warn().Err(err).Msg("escalation search failed")
	}
	c.markSecrets(ctx, cands)
	t.in.Candidates = orEmpty(cands)
}

// lockDeadline is the context in-transaction gathering runs under: what is
// left of store.lockTimeoutMs since the transaction began.
func (c *Controller) lockDeadline(ctx context.Context, began time.Time) (context.Context, context.CancelFunc) {
	return context.WithDeadline(context.WithoutCancel(ctx), began.Add(c.cfg.LockTimeout()))
}

// fail records an execution failure: nothing was written, and the decision
// is evaluated again with it so a rule explains the turn (EXEC_FAILED).
func (t *turn) fail(reason, path, message string) {
	t.in.Execution.Failures = append(t.in.Execution.Failures, executionFailure{Reason: reason, Path: path, Message: message})
}

// failAfterTx is fail for work that runs after the turn's transaction (a
// gated commit, a validation command): the decision is evaluated again with
// the failure, and the denial is recorded as a decision of its own, in a
// transaction of its own, so the record, explain-deny and the answer agree.
func (c *Controller) failAfterTx(ctx context.Context, t *turn, reason, path, message string) {
	c.failAfterTxWith(ctx, t, executionFailure{Reason: reason, Path: path, Message: message})
}

// failAfterTxWith is failAfterTx with the failure's other facts (a commit
// that was made).
func (c *Controller) failAfterTxWith(ctx context.Context, t *turn, f executionFailure) {
	// The work that failed may have run out of its own time: judging and
	// recording the failure must not.
	ctx = context.WithoutCancel(ctx)
	t.failWith(f)
	c.decide(ctx, t, stageExecution, t.stages[len(t.stages)-1].Query)
	c.recordDenial(ctx, t, false)
}
