package controller

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/mcpc/mcpc/internal/engine"
)

// ProofChains walks the proof chains of seed 002 (ag-Grid origin,
// federation) for a new work. The app implements it on the knowledge graph
// (internal/graph); the controller only merges what it returns: the chain
// files become pack candidates ahead of the ranked ones (policy still
// decides which enter the pack), and the chains are recorded in
// context-pack.json so an agent and a reviewer see why each file is there.
// Which chains are walked is policy's: the strategy decision
// (engine.StrategyQuery) names them from the ContextSignature.
type ProofChains interface {
	// Sync brings the graph up to date with the refreshed index before its
	// facts are read (a no-op for a team's graph that `graph sync` feeds).
	Sync(ctx context.Context) error
	Walk(ctx context.Context, s ChainSignals) (ProofChainResult, error)
}

// ChainSignals are what the work is about: its prompt and lexemes, the
// files retrieval ranked highest, and the chains policy asked for.
type ChainSignals struct {
	Prompt  string
	Lexemes []string
	Files   []string
	// Chains are the chain kinds to walk (graph.ChainAgGrid,
	// graph.ChainFederation), as the strategy decision names them.
	Chains []string
}

// ProofChainResult is the chains relevant to a work: their files as
// candidates (lane "proof_chain"), in chain order, and the chains
// themselves as context-pack.json records them.
type ProofChainResult struct {
	Candidates []Candidate
	Chains     json.RawMessage
}

// chainDecision is data.mcpc.lib.strategy.chain_decision: the chains the
// overridden ContextSignature calls for, and what chose them.
type chainDecision struct {
	ProofChains      []string       `json:"proofChains"`
	StrategyID       string         `json:"strategyId"`
	ContextSignature map[string]any `json:"contextSignature"`
	DecidedBy        map[string]any `json:"decidedBy"`
}

// chainSignalFiles is how many top-ranked files a chain may touch to count
// as relevant.
const chainSignalFiles = 10

// syncGraph brings the graph up to date with the refreshed index, before
// the write transaction (initialize_work's prefetch). A failed sync leaves
// the last synced graph, which chains and policy facts still read.
func (c *Controller) syncGraph(ctx context.Context) {
	if c.chains == nil {
		return
	}
	if err := c.chains.Sync(ctx); err != nil {
		c.log.Warn().Err(err).Msg("knowledge graph sync failed; reading the last synced graph")
	}
}

// withProofChains asks policy which chains the work's ContextSignature
// calls for, walks those and puts their files first among the candidates;
// then it reads the graph facts of the final candidates, so the
// transaction finds them gathered. A failing walk leaves the candidates as
// ranked: chains add context, they never take it away.
func (c *Controller) withProofChains(ctx context.Context, t *turn, cands []Candidate) []Candidate {
	if c.chains != nil {
		cands = c.walkChains(ctx, t, cands)
	}
	c.prefetchGraphFacts(ctx, t, candidateFiles(cands))
	return cands
}

// walkChains walks the chains the strategy decision names.
func (c *Controller) walkChains(ctx context.Context, t *turn, cands []Candidate) []Candidate {
	// The strategy reads what the verb stage will: the prompt, the
	// requirements, the memories and the graph facts of the ranked files.
	c.prefetchGraphFacts(ctx, t, candidateFiles(cands))
	doc := t.in
	doc.Prompt, doc.Lexemes = t.req.OriginalPrompt, stringList(t.args["lexemes"])
	doc.Requirements = c.requirementFactsOf(t)
	doc.Enforcement = enforcementFacts{Problems: slices.Clone(t.in.Enforcement.Problems)}
	c.fillEnforcement(&doc.Enforcement, t.graph)
	var dec chainDecision
	if err := c.engine.EvaluateQuery(ctx, engine.StrategyQuery, doc, &dec); err != nil {
		c.log.Warn().Err(err).Msg("the strategy decision failed; no proof chains")
		return cands
	}
	if len(dec.ProofChains) == 0 {
		return cands // a task that is neither about a grid nor a federation
	}
	var top []string
	for _, cd := range cands[:min(len(cands), chainSignalFiles)] {
		top = append(top, cd.File)
	}
	res, err := c.chains.Walk(ctx, ChainSignals{Prompt: t.req.OriginalPrompt, Lexemes: stringList(t.args["lexemes"]), Files: top, Chains: dec.ProofChains})
	if err != nil {
		c.log.Warn().Err(err).Msg("proof chains failed")
		return cands
	}
	if len(res.Candidates) == 0 {
		return cands
	}
	t.proofChains = res.Chains
	ranked := map[string]Candidate{}
	for _, cd := range cands {
		if _, seen := ranked[cd.File]; !seen {
			ranked[cd.File] = cd
		}
	}
	out := make([]Candidate, 0, len(cands)+len(res.Candidates))
	onChain := map[string]bool{}
	for _, cd := range res.Candidates {
		if onChain[cd.File] {
			continue
		}
		onChain[cd.File] = true
		if r, ok := ranked[cd.File]; ok {
			r.Lanes = append(slices.Clone(r.Lanes), "proof_chain")
			cd = r
		}
		out = append(out, cd)
	}
	for _, cd := range cands {
		if !onChain[cd.File] {
			out = append(out, cd)
		}
	}
	return out
}

// chainsWithin keeps the recorded chains to what the pack shows: a step
// whose file policy left out of the pack (an excluded or secret path, or one
// past the budget) keeps its role but loses its file, symbol and node, so
// context-pack.json never names a file the agent may not see.
func chainsWithin(raw json.RawMessage, files []string) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var chains []map[string]any
	if err := json.Unmarshal(raw, &chains); err != nil {
		return nil
	}
	for _, ch := range chains {
		steps, _ := ch["steps"].([]any)
		for _, s := range steps {
			step, _ := s.(map[string]any)
			if f, _ := step["file"].(string); f != "" && !slices.Contains(files, f) {
				delete(step, "file")
				delete(step, "symbol")
				delete(step, "node")
				delete(step, "line")
				step["outsidePack"] = true
			}
		}
	}
	out, err := json.Marshal(chains)
	if err != nil {
		return nil
	}
	return out
}
