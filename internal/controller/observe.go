package controller

import (
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/connector"
	"github.com/mcpc/mcpc/internal/protocol"
)

// TurnObservation is what a finished turn tells an Observer: who did what,
// what policy answered, how long it took and what it cost. The slices and
// the raw JSON are the turn's own and must not be changed.
type TurnObservation struct {
	At          time.Time
	Duration    time.Duration
	EvalTime    time.Duration // the policy evaluation alone
	WorkID      string        // "" before initialize_work
	AgentID     string
	Verb        string
	Seq         int // the decision's number in its work; 0 when not recorded
	Allowed     bool
	Denials     []protocol.Denial
	StateBefore string
	StateAfter  string
	Tokens      int
	Strategy    string
	NodeID      string   // args.planNodeId, when given
	Files       []string // the canonical paths the turn's facts name
	Added       []string // files an escalate added to the pack
	Stages      []string // the steps of the turn that ran
	// Connectors are the requests initialize_work's connectors made
	// (target, status, cache, duration; never a credential).
	Connectors    []connector.Trace
	PolicyVersion string
	Input, Result []byte // the decision's input and result documents
}

// Observer receives every finished turn. ObserveTurn is called on the
// turn's goroutine after its transaction has committed and must return at
// once (queue, never write).
type Observer interface {
	ObserveTurn(o *TurnObservation)
}

// observe hands the finished turn to the observer, if one is set.
func (c *Controller) observe(t *turn, start time.Time) {
	if c.observer == nil {
		return
	}
	o := &TurnObservation{
		At: start, Duration: time.Since(start), EvalTime: t.evalTime, Verb: t.req.Verb, Seq: t.seq, Allowed: t.dec.allowed(),
		Denials: t.dec.Denials, StateBefore: t.in.State, StateAfter: t.in.State, Tokens: t.charge(),
		PolicyVersion: c.engine.Version(), Input: t.inputRaw, Result: t.decRaw,
		// Room for every step a turn may have, so appending never grows it.
		Stages: append(make([]string, 0, 6+len(t.stages)), "decode"),
	}
	if t.prefetched {
		o.Stages = append(o.Stages, "gather outside the lock")
	}
	for _, st := range t.stages {
		o.Stages = append(o.Stages, decideStep(st.Name))
	}
	if t.requirements != nil {
		o.Connectors = t.requirements.Facts.Trace
	}
	if t.agent != nil {
		o.AgentID = t.agent.ID
	}
	if t.work != nil {
		o.WorkID = t.work.ID
		o.Strategy = c.viewOf(t.work).knowledge.StrategyID
	}
	if o.Allowed {
		o.Stages = append(o.Stages, "execute")
		if t.dec.NextState != "" {
			o.StateAfter = t.dec.NextState
		}
	}
	o.Stages = append(o.Stages, "account")
	if t.afterTx != nil {
		o.Stages = append(o.Stages, "after-commit")
	}
	o.NodeID, _ = t.args["planNodeId"].(string)
	for _, pf := range t.in.Paths {
		if pf.Canonical != "" {
			o.Files = append(o.Files, pf.Canonical)
		}
	}
	slices.Sort(o.Files)
	if added, ok := t.result["added"].(map[string]any); ok {
		o.Added, _ = added["files"].([]string)
	}
	c.observer.ObserveTurn(o)
}

// decideStep names a stage's evaluation among a turn's steps; the stages
// every turn has are named without building the string each time.
func decideStep(stage string) string {
	switch stage {
	case stageRequest:
		return "decide " + stageRequest
	case stageVerb:
		return "decide " + stageVerb
	case stageExecution:
		return "decide " + stageExecution
	}
	return "decide " + stage
}
