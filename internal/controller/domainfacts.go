package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/memory"
	"github.com/mcpc/mcpc/schemas"
)

// DomainFacts answers what the knowledge graph knows about a set of files
// (seed 000 sections 10-11): the MigrationRules of the tags they use, the
// component contracts, macro constraints and prose policies in scope with
// their grounding. The app implements it on the graph serve syncs.
type DomainFacts interface {
	PolicyFacts(ctx context.Context, files []string) (*graph.PolicyFacts, error)
}

// enforcementFacts is input.enforcement: the one shape in which the
// domain's rules reach policy as data (seed 000 section 14's enforcement
// bundle). Go gathers; mcpc.lib.enforcement decides which memories are
// active, which prose is enforceable and what a plan must cite.
type enforcementFacts struct {
	// Gathered is true on the verbs that gather these facts
	// (initialize_work, escalate, submit_execution_plan).
	Gathered bool `json:"gathered"`
	// Now is the clock (MCPC_NOW when set), RFC 3339, for expiry windows.
	Now              string                 `json:"now"`
	MigrationRules   []map[string]any       `json:"migrationRules"`
	Contracts        []graph.ComponentFacts `json:"contracts"`
	MacroConstraints []map[string]any       `json:"macroConstraints"`
	Prose            []graph.ProseFacts     `json:"prose"`
	// FileTags maps gathered files to the custom element tags they use.
	FileTags map[string][]string `json:"fileTags"`
	// Memories are .ai/memory/records.json's records as stored.
	Memories []memory.Record `json:"memories"`
	// Problems are what could not be gathered or ingested: override files
	// that fail their schema, an unreadable records file, a graph that did
	// not answer. Policy reports them; they never pass silently.
	Problems []domainProblem `json:"problems"`
	// Ingested lists the override files this turn ingested.
	Ingested []string `json:"ingested"`
}

type domainProblem struct {
	Source   string            `json:"source"` // "override", "records", "graph"
	File     string            `json:"file"`
	Problems []schemas.Problem `json:"problems"`
}

// MarshalJSON keeps every list present, so rules need no existence checks
// on turns that gather nothing.
func (e enforcementFacts) MarshalJSON() ([]byte, error) {
	type plain enforcementFacts
	p := plain(e)
	p.MigrationRules = orEmpty(p.MigrationRules)
	p.Contracts = orEmpty(p.Contracts)
	p.MacroConstraints = orEmpty(p.MacroConstraints)
	p.Prose = orEmpty(p.Prose)
	p.Memories = orEmpty(p.Memories)
	p.Problems = orEmpty(p.Problems)
	p.Ingested = orEmpty(p.Ingested)
	if p.FileTags == nil {
		p.FileTags = map[string][]string{}
	}
	return json.Marshal(p)
}

// maxDomainFiles bounds the files whose graph facts one turn gathers.
const maxDomainFiles = 200

// gatherDomain fills input.enforcement for the verbs whose rules read it:
// initialize_work and escalate (the pack lists the rules in scope and what
// a plan must cite) and submit_execution_plan (the plan is checked against
// them). Human overrides are ingested earlier (prefetch, before ranking
// reads the memories), so the records read here include them. The graph's
// facts were read outside the write lock when the verb was prefetched
// (graphFactsFor); only what the preview could not foresee is read here,
// under the lock's deadline.
func (c *Controller) gatherDomain(ctx context.Context, t *turn) {
	var files []string
	switch t.req.Verb {
	case "initialize_work":
		files = candidateFiles(t.in.Candidates) // overrides were ingested in prefetch
	case "escalate":
		files = escalationFiles(t.in.Pack.Files, t.in.Candidates)
	case "submit_execution_plan":
		files = packTargets(t.in.Submission, t.in.Pack.Files)
	default:
		return
	}
	c.fillEnforcement(&t.in.Enforcement, c.graphFactsFor(ctx, t, files))
	if t.req.Verb == "submit_execution_plan" {
		c.addNamedConstraints(ctx, t)
		t.in.SubmissionFacts.addTagTargets(t.in.Enforcement.FileTags)
	}
}

// graphFacts are the knowledge graph's facts about a set of files, read once
// per turn.
type graphFacts struct {
	files []string
	facts *graph.PolicyFacts
	err   error
}

// readGraphFacts asks the graph about files (at most maxDomainFiles).
func (c *Controller) readGraphFacts(ctx context.Context, files []string) *graphFacts {
	g := &graphFacts{files: slices.Clone(files[:min(len(files), maxDomainFiles)])}
	if c.domain != nil {
		g.facts, g.err = c.domain.PolicyFacts(ctx, g.files)
	}
	return g
}

// prefetchGraphFacts reads the graph's facts about files before the write
// transaction, so the transaction finds them gathered.
func (c *Controller) prefetchGraphFacts(ctx context.Context, t *turn, files []string) {
	if t.graph != nil && slices.Equal(t.graph.files, files[:min(len(files), maxDomainFiles)]) {
		return
	}
	t.graph = c.readGraphFacts(ctx, files)
}

// graphFactsFor returns the facts prefetched for exactly these files, or
// reads them now (inside the transaction, under ctx's deadline): the
// preview saw another pack or other candidates than the transaction holds.
func (c *Controller) graphFactsFor(ctx context.Context, t *turn, files []string) *graphFacts {
	if t.graph != nil && slices.Equal(t.graph.files, files[:min(len(files), maxDomainFiles)]) {
		return t.graph
	}
	return c.readGraphFacts(ctx, files)
}

// prefetchPlanFacts reads, outside the lock, the graph facts of a submitted
// plan's targets that the pack the preview saw holds.
func (c *Controller) prefetchPlanFacts(ctx context.Context, pv, t *turn) {
	if m, ok := t.args["planGraph"].(map[string]any); ok {
		c.prefetchGraphFacts(ctx, t, packTargets(m, pv.in.Pack.Files))
		c.prefetchNamedConstraints(ctx, t)
	}
}

// prefetchEscalationFacts reads, outside the lock, the graph facts of the
// pack and the candidates escalate's search found.
func (c *Controller) prefetchEscalationFacts(ctx context.Context, pv, t *turn) {
	c.prefetchGraphFacts(ctx, t, escalationFiles(pv.in.Pack.Files, t.in.Candidates))
}

func escalationFiles(pack []string, cands []Candidate) []string {
	return append(slices.Clone(pack), candidateFiles(cands)...)
}

// packTargets are a plan's targets that the pack holds: nothing derived
// from a file the agent may not read enters a decision.
func packTargets(sub map[string]any, pack []string) []string {
	return slices.DeleteFunc(planTargets(sub), func(f string) bool { return !slices.Contains(pack, f) })
}

// fillEnforcement sets input.enforcement from the memory records and the
// graph's facts g.
func (c *Controller) fillEnforcement(e *enforcementFacts, g *graphFacts) {
	e.Gathered = true
	e.Now = c.now().UTC().Format(time.RFC3339)
	records, err := memory.Load(c.paths)
	if err != nil {
		e.Problems = append(e.Problems, domainProblem{Source: "records", File: memory.RecordsFile, Problems: []schemas.Problem{{Message: err.Error()}}})
	}
	e.Memories = records[:min(len(records), memory.MaxRecords)]
	if c.domain == nil || g == nil {
		return
	}
	if g.err != nil {
		c.log.Warn().Err(g.err).Msg("graph policy facts failed")
		e.Problems = append(e.Problems, domainProblem{Source: "graph", Problems: []schemas.Problem{{Message: "the knowledge graph did not answer"}}})
		return
	}
	facts := g.facts
	e.MigrationRules, e.Contracts, e.MacroConstraints = facts.MigrationRules, facts.Components, facts.MacroConstraints
	e.Prose, e.FileTags = facts.ProsePolicies, facts.FileTags
}

// ingestOverrides moves human overrides into records.json, one process at
// a time; a file that fails its schema is reported and left in place. It
// runs at initialize_work outside the store transaction.
func (c *Controller) ingestOverrides(t *turn) {
	e := &t.in.Enforcement
	unlock, err := c.paths.Lock(".ai/tmp/memory-ingest.lock")
	if err != nil {
		e.Problems = append(e.Problems, domainProblem{Source: "override", File: memory.OverridesDir, Problems: []schemas.Problem{{Message: err.Error()}}})
		return
	}
	defer unlock()
	res, err := memory.Ingest(c.paths, c.now())
	for _, p := range res.Problems {
		e.Problems = append(e.Problems, domainProblem{Source: "override", File: p.File, Problems: p.Problems})
	}
	if err != nil {
		e.Problems = append(e.Problems, domainProblem{Source: "override", File: memory.OverridesDir, Problems: []schemas.Problem{{Message: err.Error()}}})
	}
	e.Ingested = res.Ingested
}

func candidateFiles(cands []Candidate) []string {
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.File)
	}
	return out
}

// planTargets are the distinct string targetFiles of a submitted plan.
func planTargets(sub map[string]any) []string {
	nodes, _ := sub["nodes"].([]any)
	seen := map[string]bool{}
	out := []string{}
	for _, n := range nodes {
		m, _ := n.(map[string]any)
		if f, ok := m["targetFile"].(string); ok && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// withDomainObligations adds what the plan must cite under the domain's
// rules (decided by mcpc.lib.enforcement) to planGraphSchema: one sentence
// per obligation in enforcementObligations, the objects in
// policyObligations for agents that read them as data.
func withDomainObligations(schema map[string]any, obls []map[string]any) map[string]any {
	if len(obls) == 0 {
		return schema
	}
	var lines []any
	switch l := schema["enforcementObligations"].(type) {
	case []any:
		lines = slices.Clone(l)
	case []string:
		for _, s := range l {
			lines = append(lines, s)
		}
	}
	for _, o := range obls {
		lines = append(lines, fmt.Sprintf("%v %v: %v.", o["kind"], o["policy"], o["must"]))
	}
	schema["enforcementObligations"] = lines
	schema["policyObligations"] = obls
	return schema
}
