package controller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/mcpc/mcpc/internal/exactjson"
	"github.com/mcpc/mcpc/internal/jsrun"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/requirements"
	"github.com/mcpc/mcpc/internal/store"
	"github.com/mcpc/mcpc/schemas"
)

// turn carries one controller_turn from request to response.
type turn struct {
	req      protocol.TurnRequest
	args     map[string]any
	in       input
	work     *store.Work // nil before initialize_work or when not found
	agent    *store.Agent
	nodes    []store.Node
	dec      decision
	result   map[string]any
	afterTx  func(context.Context) // work that must not hold the store lock (validation commands)
	seq      int
	inputRaw []byte // the last stage's input and result, the record's own
	decRaw   []byte
	stages   []stageRecord // every evaluation, in order; the last is inputRaw/decRaw
	// prefetched: the verb's expensive facts were gathered outside the lock.
	prefetched bool
	dry        *patchTrial         // apply_code_patch's dry run, as gathered (stages.go)
	search     *regexp.Regexp      // search_codebase_text's compiled pattern
	searchCost int                 // its instructions per byte (1 for a substring)
	lockHeld   time.Duration       // how long the write transaction ran
	gitRev     string              // repoSnapshotId (initialize_work) or HEAD (apply_code_patch), read before the transaction
	pack       *packDoc            // set when the turn wrote a pack (initialize_work, escalate)
	record     []byte              // the decision record, once committed
	scratch    *pathscope.Resolver // write_scratch_file: the work's scratch folder
	budget     turnBudget
	// proofChains are the chains initialize_work records in the pack.
	proofChains json.RawMessage
	graph       *graphFacts       // the graph's facts, read before the transaction (domainfacts.go)
	named       *namedConstraints // the MacroConstraints of the tags a plan names (namedconstraints.go)
	intent      intentFacts       // the active intent of a write (seed 004), when there is one
	codeRun     *jsrun.Result     // run_sandboxed_code: the run, made before the transaction
	// commitMessage is a git_commit side effect's message, read from the
	// node's payload in the work's scratch folder.
	commitMessage string

	// requirements are initialize_work's tickets and API operations,
	// fetched before the transaction (internal/requirements).
	requirements *requirements.Fetch
	evalTime     time.Duration // the policy evaluation's own time (observability)
	// lockStage is the part of the turn running under the store's lock;
	// aborts undo what it did outside the store (lockbound.go).
	lockStage string
	aborts    []func()
	packRead  *packRead // escalate: the pack document, read outside the lock
	readAhead *fileRead // read_file_lines: the pack file, read outside the lock
	// pendingRef is the file of the turn's decision when it waits to be
	// recorded (pending.go); the answer's traceRef names it.
	pendingRef string
}

// Turn runs one controller_turn. raw is the tool call's arguments object as
// received. It always returns a TurnResponse; a returned error means the
// store itself failed (a protocol-level fault).
func (c *Controller) Turn(ctx context.Context, raw json.RawMessage) (*protocol.TurnResponse, error) {
	start := time.Now()
	t := &turn{result: map[string]any{}}
	c.decode(t, raw)
	if t.req.Verb == "read_file_lines" {
		if err := c.readAhead(ctx, t); err != nil {
			return nil, err
		}
	}
	if err := c.gatherOutsideLock(ctx, t); err != nil {
		return nil, err
	}
	err := c.store.UpdateWithin(ctx, c.lockBounds(), func(tx *store.Tx) error {
		began := time.Now()
		defer func() { t.lockHeld = time.Since(began) }()
		// What is gathered or executed under the lock stops at its deadline;
		// made lazily, as most turns (reads) have nothing that could wait.
		lockCtx := func() (context.Context, context.CancelFunc) { return c.lockDeadline(ctx, began) }
		if err := t.underLock(tx, lockLoad); err != nil {
			return err
		}
		if err := c.load(ctx, tx, t); err != nil {
			return err
		}
		if err := t.underLock(tx, stageRequest); err != nil {
			return err
		}
		if err := c.gatherFirst(ctx, tx, t); err != nil {
			return err
		}
		c.decide(ctx, t, stageRequest, queryStage1)
		if t.dec.allowed() && t.dec.VerbStage {
			if err := t.underLock(tx, stageVerb); err != nil {
				return err
			}
			gctx, cancel := lockCtx()
			err := c.gatherVerb(gctx, tx, t)
			cancel()
			if err != nil {
				return err
			}
			c.decide(ctx, t, stageVerb, queryDecision)
		}
		if t.dec.allowed() {
			if err := t.underLock(tx, lockExecute); err != nil {
				return err
			}
			if err := c.execute(ctx, tx, t); err != nil {
				return err
			}
		}
		if err := t.underLock(tx, lockRecord); err != nil {
			return err
		}
		return c.account(ctx, tx, t)
	})
	c.budget.settled(t.budget.session, err == nil)
	t.dry.discard() // a staged patch the turn did not publish
	if err := c.settleLockError(ctx, t, err); err != nil {
		return nil, err
	}
	if t.lockHeld > c.cfg.LockTimeout() {
		c.log.Warn().Dur("lockHeld", t.lockHeld).Str("verb", t.req.Verb).Msg("a turn held the store lock past store.lockTimeoutMs")
	} else {
		c.log.Debug().Dur("lockHeld", t.lockHeld).Str("verb", t.req.Verb).Msg("turn")
	}
	if t.record != nil {
		c.records.write(c.recordPath(t.work.ID, t.seq), t.record)
	}
	if t.afterTx != nil {
		t.afterTx(ctx)
	}
	c.noteFriction(t)
	c.observe(t, start)
	return c.respond(ctx, t)
}

// decode parses the request and records every shape problem as a fact for
// policy; it never rejects by itself.
func (c *Controller) decode(t *turn, raw json.RawMessage) {
	t.in = input{
		Args: map[string]any{}, Paths: map[string]pathFacts{},
		Plan: planFacts{Nodes: map[string]nodeFact{}}, Submission: map[string]any{}, Reads: map[string]string{},
		Lexemes: []string{}, Candidates: []Candidate{}, Pack: packFacts{Files: []string{}},
		Patch: patchFacts{Problems: []schemas.Problem{}, Elements: []elementFact{}, Contracts: map[string]contractFacts{}}, Gates: gateFacts{Approved: []string{}},
		StrategySignals: []map[string]any{}, Request: requestFacts{Errors: []schemas.Problem{}},
		SubmissionFacts: submissionFacts{CycleNodes: []string{}},
		Execution:       executionFacts{Failures: []executionFailure{}},
	}
	t.in.Request.Bytes = len(raw)
	t.in.Request.Tokens = (len(raw) + 3) / 4
	// The request is decoded once, keys matched exactly: policy judges this
	// document and Go executes what it reads from it (never a second,
	// case-insensitive decoding). Duplicate and case-twin keys are facts
	// for the invalid-args rule.
	var (
		doc     any
		twins   []exactjson.Problem
		problem string
	)
	if len(raw) > c.cfg.Request.MaxBytes {
		problem = fmt.Sprintf("the request is %d bytes, over the limit of %d", len(raw), c.cfg.Request.MaxBytes)
	} else if v, probs, err := exactjson.Decode(raw); err != nil {
		problem = "the request is not valid JSON: " + err.Error()
		if json.Valid(raw) {
			problem = "the request could not be decoded: " + err.Error()
		}
	} else {
		doc, twins = v, probs
	}
	if problem != "" {
		t.in.Request.addProblems(schemas.Problem{Message: problem})
		// Keep the envelope fields, so the response still names the work and
		// policy judges the verb that was sent; the args stay unknown.
		head := salvageEnvelope(raw)
		t.req = protocol.TurnRequest{Verb: head["verb"], WorkID: head["workId"], AgentID: head["agentId"], RunSessionID: head["runSessionId"]}
		t.in.Verb = t.req.Verb
		t.args = map[string]any{}
		return
	}
	t.in.Request.Decoded = true
	for _, p := range twins {
		t.in.Request.addProblems(schemas.Problem{Path: p.Path, Message: p.Message})
	}
	t.in.Request.addProblems(c.requests.Check(doc)...)
	m, _ := doc.(map[string]any)
	str := func(k string) string { s, _ := m[k].(string); return s }
	t.req = protocol.TurnRequest{
		Verb: str("verb"), RunSessionID: str("runSessionId"), WorkID: str("workId"),
		AgentID: str("agentId"), OriginalPrompt: str("originalPrompt"),
	}
	if a, ok := m["args"].(map[string]any); ok {
		t.args = a
	} else {
		t.args = map[string]any{}
	}
	t.in.Verb = t.req.Verb
	t.in.Args = t.args
}

// salvageEnvelope reads the envelope's string fields of a request that
// could not be decoded whole, keys matched exactly.
func salvageEnvelope(raw []byte) map[string]string {
	var fields map[string]json.RawMessage
	_ = json.Unmarshal(raw, &fields) // best effort: a request that is not JSON names nothing
	out := map[string]string{}
	for _, k := range []string{"verb", "workId", "agentId", "runSessionId"} {
		var s string
		if json.Unmarshal(fields[k], &s) == nil {
			out[k] = s
		}
	}
	return out
}

// sentID is an id the request sent, or "" when it is longer than the
// request schema allows: the answer names the ids the turn went by, and
// an id the schema refuses is none (a 4 MB agentId came back whole, in
// the answer's text and its structured copy).
func sentID(id string) string {
	if len(id) > protocol.MaxIDLength {
		return ""
	}
	return id
}

// load finds the work and the agent the request names.
func (c *Controller) load(ctx context.Context, tx *store.Tx, t *turn) error {
	t.in.State = "UNINITIALIZED"
	t.in.Work = workFacts{ID: t.req.WorkID, Given: t.req.WorkID != ""}
	if err := c.loadSession(ctx, tx, t); err != nil {
		return err
	}
	t.in.Prompt = t.req.OriginalPrompt
	if t.req.WorkID != "" {
		w, err := tx.Work(ctx, t.req.WorkID)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return err
		default:
			t.work = w
			t.in.Work.Found = true
			t.in.State = w.State
			t.in.Prompt = w.Prompt
			t.in.Lexemes = w.Lexemes
		}
	}
	if t.work == nil {
		// No work: an ephemeral agent, charged nothing that lasts.
		t.agent = &store.Agent{ID: sentID(t.req.AgentID)}
		if t.agent.ID == "" {
			t.agent.ID = newID("agent")
		}
		t.in.Agent = agentFacts{ID: t.agent.ID}
		return nil
	}
	id := sentID(t.req.AgentID)
	if id == "" {
		id = newID("agent") // a sub-agent arriving without an agentId (seed 000 gotcha 9)
	}
	a, err := tx.Agent(ctx, t.work.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		a = &store.Agent{WorkID: t.work.ID, ID: id}
	} else if err != nil {
		return err
	}
	t.agent = a
	if err := c.loadAgentBudget(ctx, tx, t); err != nil {
		return err
	}
	if t.nodes, err = tx.Nodes(ctx, t.work.ID, nodeVerbs[t.req.Verb]); err != nil {
		return err
	}
	p := c.viewOf(t.work).pack
	t.in.Pack = packFacts{Ref: p.Ref, Hash: p.Hash, Files: orEmpty(p.Files), RankingCutShort: t.in.Pack.RankingCutShort}
	t.in.PackInsufficient = p.Outcome == "pack_insufficient"
	if t.in.Envelope, err = c.envelope(t.work, a.ID, p.Ref, p.Hash); err != nil {
		return err
	}
	t.in.Plan = planFactsOf(t.nodes, t.req.Verb)
	t.in.NodeStates, _ = nodeStatesOf(t.nodes)
	return nil
}

// decide evaluates one stage of the policy (stages.go); any failure is a
// POLICY_ERROR denial (fail closed), never an allow.
func (c *Controller) decide(ctx context.Context, t *turn, stage, query string) {
	t.dec = decision{}
	if stage != stageExecution { // the execution facts are judged by the stage that allowed
		t.in.Stage = stage
	}
	eval := c.engine.Evaluate
	if query == queryStage1 {
		eval = c.engine.EvaluateStage1
	}
	began := time.Now()
	in, res, err := eval(ctx, &t.in, &t.dec)
	t.evalTime += time.Since(began) // every stage's evaluation
	t.inputRaw, t.decRaw = in, res
	if err == nil && t.dec.Allow == nil {
		err = errors.New("the decision has no boolean allow")
	}
	if err != nil {
		c.policyError(t, err)
	}
	t.stages = append(t.stages, stageRecord{Name: stage, Query: query, Input: t.inputRaw, Result: t.decRaw})
}

// policyError replaces the decision with the POLICY_ERROR denial.
func (c *Controller) policyError(t *turn, err error) {
	c.log.Error().Err(err).Str("verb", t.req.Verb).Msg("policy evaluation failed; denying")
	deny := false
	t.dec = decision{
		Allow: &deny, State: t.in.State, NextState: t.in.State, Capabilities: []string{},
		Denials: []protocol.Denial{{
			Code: "POLICY_ERROR", Rule: "engine", Message: err.Error(), Path: "",
			Remediation: "Fix the policy bundle (run `mcpc policy check`); every turn is denied until it evaluates.",
			Severity:    "error",
		}},
		// Nothing else can pass while the policy is down; the same call is
		// the one to retry.
		SuggestedAction: map[string]any{"verb": t.req.Verb, "reason": "no policy decision is available; retry once the policy bundle loads"},
	}
	t.decRaw, _ = json.Marshal(t.dec)
}

// account charges the turn to its session and agent and records the
// decision.
func (c *Controller) account(ctx context.Context, tx *store.Tx, t *turn) error {
	if err := c.chargeSession(ctx, tx, t); err != nil {
		return err
	}
	if t.work == nil {
		return nil // turns before initialize_work have no work and are not recorded
	}
	t.agent.WorkID = t.work.ID
	t.chargeAgent()
	t.agent.Turns++
	if !t.dec.allowed() {
		t.agent.Denials++
	}
	if err := tx.PutAgent(ctx, t.agent); err != nil {
		return err
	}
	seq, err := tx.NextDecision(ctx, t.work.ID)
	if err != nil {
		return err
	}
	t.seq = seq
	t.record = decisionRecord(seq, t.req.Verb, t.agent.ID, c.now(), t.inputRaw, t.decRaw, t.stages)
	return tx.PutDecision(ctx, t.work.ID, seq, !t.dec.allowed(), t.record)
}

// recordPath is where a decision's record file goes in the work bucket,
// relative to the worktree.
func (c *Controller) recordPath(workID string, seq int) string {
	return fmt.Sprintf("%s/decisions/%06d.json", workDir(workID), seq)
}

// decisionRecord is {seq, verb, agentId, at, stage, query, input, result,
// stages}: input and result are the last stage's (the decision the turn
// answered), so tools that read {input, result} keep working; stages holds
// the earlier evaluations, each with its own input and result. It is written
// out by hand because inputs and results are already compact JSON from the
// engine, and marshaling them as RawMessage would re-scan them on every turn.
func decisionRecord(seq int, verb, agentID string, at time.Time, input, result []byte, stages []stageRecord) []byte {
	last := stageRecord{Name: stageVerb, Query: queryDecision}
	if len(stages) > 0 {
		last, stages = stages[len(stages)-1], stages[:len(stages)-1]
	}
	head, _ := json.Marshal(struct {
		Seq     int       `json:"seq"`
		Verb    string    `json:"verb"`
		AgentID string    `json:"agentId"`
		At      time.Time `json:"at"`
		Stage   string    `json:"stage"`
		Query   string    `json:"query"`
	}{seq, verb, agentID, at.UTC(), last.Name, last.Query})
	size := len(head) + len(input) + len(result) + 48
	for _, s := range stages {
		size += len(s.Input) + len(s.Result) + 96
	}
	rec := make([]byte, 0, size)
	rec = append(rec, head[:len(head)-1]...)
	rec = append(append(rec, `,"input":`...), orNull(input)...)
	rec = append(append(rec, `,"result":`...), orNull(result)...)
	if len(stages) > 0 {
		rec = append(rec, `,"stages":[`...)
		for i, s := range stages {
			if i > 0 {
				rec = append(rec, ',')
			}
			name, _ := json.Marshal(s.Name)
			query, _ := json.Marshal(s.Query)
			rec = append(append(rec, `{"name":`...), name...)
			rec = append(append(rec, `,"query":`...), query...)
			rec = append(append(rec, `,"input":`...), orNull(s.Input)...)
			rec = append(append(rec, `,"result":`...), orNull(s.Result)...)
			rec = append(rec, '}')
		}
		rec = append(rec, ']')
	}
	return append(rec, '}')
}

func orNull(b []byte) []byte {
	if len(b) == 0 {
		return []byte("null")
	}
	return b
}
