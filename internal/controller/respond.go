package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/mcpc/mcpc/internal/protocol"
)

// respond assembles the full TurnResponse envelope (ARCHITECTURE §5).
func (c *Controller) respond(ctx context.Context, t *turn) (*protocol.TurnResponse, error) {
	d := t.dec
	r := protocol.TurnResponse{
		RunSessionID: sentID(t.req.RunSessionID), AgentID: t.agent.ID, State: d.State,
		Capabilities: orEmpty(d.Capabilities), Result: t.result,
		DenyReasons: []string{}, Denials: orEmpty(d.Denials), SchemaVersion: protocol.SchemaVersion,
		OriginalPrompt: t.in.Prompt, KnowledgeStrategy: protocol.KnowledgeStrategy{Reasons: []protocol.StrategyReason{}},
		SubAgentHints: protocol.SubAgentHints{SuggestedSplits: []string{}},
		Scope:         protocol.Scope{WorktreeRoot: c.root},
	}
	if d.allowed() && d.NextState != "" {
		r.State = d.NextState
	}
	if r.State == "" {
		r.State = t.in.State
	}
	if len(d.Advisories) > 0 {
		r.Advisories = d.Advisories
	}
	for _, dn := range d.Denials {
		r.DenyReasons = append(r.DenyReasons, dn.Code+": "+dn.Message)
	}
	if !d.allowed() {
		r.SuggestedAction = suggestedAction(d.SuggestedAction)
	}
	r.VerbDescriptions = map[string]protocol.VerbDescription{}
	if described := c.describedVerbs(t, r.State, r.Capabilities); len(described) > 0 {
		verbs, shapes := c.verbCatalogue(), verbArgSchemas()
		for _, v := range described {
			if desc, ok := verbs[v]; ok {
				desc.Args = shapes[v]
				r.VerbDescriptions[v] = desc
			}
		}
	}
	r.BudgetStatus = c.budgetStatus(t)
	r.Progress = c.progressOf(ctx, t)
	if t.work == nil {
		if r.RunSessionID == "" {
			r.RunSessionID = newID("run")
		}
		return &r, nil
	}
	r.WorkID, r.RunSessionID = t.work.ID, t.work.RunSessionID
	r.Scope.ScratchRoot = workDir(t.work.ID) + "/scratch"
	r.TraceRef = fmt.Sprintf("%s/decisions/%06d.json", workDir(t.work.ID), t.seq)
	if t.pendingRef != "" {
		r.TraceRef = t.pendingRef // recorded by a later transaction (pending.go)
	}
	view := c.viewOf(t.work)
	r.KnowledgeStrategy = view.knowledge
	if len(view.splits) > 0 {
		r.SubAgentHints = protocol.SubAgentHints{Recommended: len(view.splits) > 1, SuggestedSplits: view.splits}
	}
	if d.Confidence != nil {
		if r.Result == nil {
			r.Result = map[string]any{}
		}
		r.Result["confidence"] = d.Confidence // seed 003: continue, retry or escalate
	}
	if t.pack != nil && d.allowed() {
		c.packResponse(&r, t, view.strategy)
	}
	return &r, nil
}

// packResponse adds what initialize_work and escalate return: the full pack,
// the plan schema with the envelope to copy, and the strategy.
func (c *Controller) packResponse(r *protocol.TurnResponse, t *turn, strategy map[string]any) {
	p := t.pack
	r.Outcome = p.Outcome
	if p.Outcome == "pack_insufficient" {
		r.PackInsufficiency = t.dec.PackInsufficiency
	}
	env := c.envelopeValues(t.work, t.agent.ID, p.Ref, p.Hash).asMap()
	if t.req.Verb != "initialize_work" {
		// escalate: the grown file list, the active memories of its
		// domains (the new files' included) and the new envelope; what it
		// added is in result.added, the whole pack at contextPackRef.
		r.ContextPack = map[string]any{"ref": p.Ref, "hash": p.Hash, "files": orEmpty(p.Files), "excluded": p.Excluded,
			"activeMemories": orEmpty(p.ActiveMemories)}
		r.PlanGraphSchema = map[string]any{"envelope": env}
		return
	}
	r.ContextPack = map[string]any{
		"ref": p.Ref, "hash": p.Hash, "files": orEmpty(p.Files), "ranking": p.Ranking,
		"symbols": p.Symbols, "usages": p.Usages, "policies": p.Policies, "memories": p.Memories,
		"attachments": p.Attachments, "excluded": p.Excluded, "activeMemories": orEmpty(p.ActiveMemories),
	}
	if p.Requirements != nil {
		r.ContextPack["requirements"] = p.Requirements
	}
	r.PlanGraphSchema = withDomainObligations(planGraphSchema(t.dec.PlanGraphSchema, env), t.dec.EnforcementObligations)
	r.PlanGraphSchema["schema"] = planGraphJSONSchema()
	r.PlanGraphSchema["example"] = c.examplePlan(t.work, env, p.Files, r.PlanGraphSchema["evidencePolicy"])
	r.Strategy = strategy
}

// planGraphSchema tells the agent what its plan must hold: policy built it
// (lib/plan guidance) from the tables and configuration the plan rules
// enforce, so it cannot state another evidence policy or other required
// fields than the ones a plan is judged by. Go adds the envelope to copy.
func planGraphSchema(decided map[string]any, envelope map[string]any) map[string]any {
	out := maps.Clone(decided)
	if out == nil {
		out = map[string]any{}
	}
	out["envelope"] = envelope
	return out
}

func knowledgeStrategy(s map[string]any) protocol.KnowledgeStrategy {
	ks := protocol.KnowledgeStrategy{Reasons: []protocol.StrategyReason{}}
	if raw, err := json.Marshal(s["reasons"]); err == nil {
		_ = json.Unmarshal(raw, &ks.Reasons)
	}
	if ks.Reasons == nil {
		ks.Reasons = []protocol.StrategyReason{}
	}
	ks.StrategyID, _ = s["strategyId"].(string)
	ks.ContextSignature, _ = s["contextSignature"].(map[string]any)
	return ks
}

func suggestedAction(m map[string]any) *protocol.SuggestedAction {
	if m == nil {
		return nil
	}
	sa := &protocol.SuggestedAction{}
	sa.Verb, _ = m["verb"].(string)
	sa.Reason, _ = m["reason"].(string)
	sa.Args, _ = m["args"].(map[string]any)
	if sa.Verb == "" {
		return nil
	}
	return sa
}
