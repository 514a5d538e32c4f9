package controller

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/exactjson"

	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

// Node statuses as Go records them while executing (docs/policy-input.md).
const (
	statusPending  = "pending"
	statusPatched  = "patched"
	statusRunning  = "running"
	statusPassed   = "passed"
	statusFailed   = "failed"
	statusExecuted = "executed"
	statusResolved = "resolved"
)

// planNode is the part of a PlanGraph node Go needs to execute it.
type planNode struct {
	NodeID            string           `json:"nodeId"`
	Kind              string           `json:"kind"`
	TargetFile        string           `json:"targetFile"`
	Operation         string           `json:"operation,omitempty"` // change nodes: modify, or create
	VerificationHooks []map[string]any `json:"verificationHooks"`
	MapsToNodeIDs     []string         `json:"mapsToNodeIds"`
	DependsOn         []string         `json:"dependsOn"`
	CommitGateID      string           `json:"commitGateId,omitempty"`
	SideEffectType    string           `json:"sideEffectType,omitempty"`
}

// decodeNode reads a stored node. Its body is the node object policy judged,
// re-marshaled by acceptPlan; it is read with exact key lookups, so Go
// executes the fields policy saw and never a case twin of one.
func decodeNode(n store.Node) planNode {
	// A body acceptPlan marshaled is always JSON; a damaged row reads as an
	// empty node, which no rule lets a verb act on.
	v, _, _ := exactjson.Decode(n.Body)
	m, _ := v.(map[string]any)
	return nodeOf(m)
}

// nodeOf reads a PlanGraph node object with exact key lookups.
func nodeOf(m map[string]any) planNode {
	str := func(k string) string { s, _ := m[k].(string); return s }
	p := planNode{
		NodeID: str("nodeId"), Kind: str("kind"), TargetFile: str("targetFile"), Operation: str("operation"),
		CommitGateID: str("commitGateId"), SideEffectType: str("sideEffectType"),
		MapsToNodeIDs: stringList(m["mapsToNodeIds"]), DependsOn: stringList(m["dependsOn"]),
		VerificationHooks: []map[string]any{},
	}
	hooks, _ := m["verificationHooks"].([]any)
	for _, h := range hooks {
		if hm, ok := h.(map[string]any); ok {
			p.VerificationHooks = append(p.VerificationHooks, hm)
		}
	}
	return p
}

// nodeVerbs are the verbs whose decisions look at individual plan nodes;
// other turns get only whether a plan is accepted and started, so a read
// does not pay for the size of the plan.
var nodeVerbs = map[string]bool{
	"apply_code_patch": true, "run_automation_recipe": true, "run_sandboxed_code": true,
	"execute_gated_side_effect": true, "escalate": true, "signal_task_complete": true,
}

// planFactsOf summarises the accepted plan for policy.
func planFactsOf(nodes []store.Node, verb string) planFacts {
	pf := planFacts{Accepted: len(nodes) > 0, Nodes: map[string]nodeFact{}}
	for _, n := range nodes {
		if n.Status != statusPending {
			pf.Started = true
		}
	}
	if !nodeVerbs[verb] {
		return pf
	}
	for _, n := range nodes {
		p := decodeNode(n)
		p.VerificationHooks, p.MapsToNodeIDs, p.DependsOn = orEmpty(p.VerificationHooks), orEmpty(p.MapsToNodeIDs), orEmpty(p.DependsOn)
		pf.Nodes[n.NodeID] = nodeFact{planNode: p, Status: n.Status}
	}
	return pf
}

// nodeState is a group of plan nodes lib/progress judges alike: one kind,
// one status, and the same distinct statuses of the validate nodes mapped
// to them. Policy decides which states are complete; Go only groups, so a
// 200-node plan is a handful of facts on every turn.
type nodeState struct {
	Kind       string   `json:"kind"`
	Status     string   `json:"status"`
	Validators []string `json:"validators"` // sorted, distinct
	Count      int      `json:"count"`
}

// decidedProgress is lib/progress's summary, in the decision and from
// engine.ProgressQuery.
type decidedProgress struct {
	TotalNodes     int   `json:"totalNodes"`
	CompletedNodes int   `json:"completedNodes"`
	RemainingNodes int   `json:"remainingNodes"`
	CompleteStates []int `json:"completeStates"`
}

// nodeStatesOf groups nodes by state, in order of first appearance, and
// returns for each node the index of its state. It runs twice a turn on
// plans of hundreds of nodes, hence one sorted slice of (mapped node,
// validator status) pairs rather than a slice per node.
func nodeStatesOf(nodes []store.Node) ([]nodeState, []int) {
	type mapped struct{ target, status string }
	var pairs []mapped
	for _, n := range nodes {
		if n.Kind == "validate" {
			for _, m := range n.MapsTo {
				pairs = append(pairs, mapped{m, n.Status})
			}
		}
	}
	slices.SortFunc(pairs, func(a, b mapped) int {
		return cmp.Or(strings.Compare(a.target, b.target), strings.Compare(a.status, b.status))
	})
	type span struct{ from, to int }
	spans := make(map[string]span, len(pairs))
	for i := 0; i < len(pairs); {
		j := i
		for j < len(pairs) && pairs[j].target == pairs[i].target {
			j++
		}
		spans[pairs[i].target] = span{i, j}
		i = j
	}
	// distinct lists the distinct statuses of a span; key is them joined
	// (one status, the common case, is its own key: no allocation).
	distinct := func(sp span) []string {
		out := []string{}
		for _, p := range pairs[sp.from:sp.to] {
			if len(out) == 0 || out[len(out)-1] != p.status {
				out = append(out, p.status)
			}
		}
		return out
	}
	key := func(sp span) string {
		if sp.from == sp.to {
			return ""
		}
		first, last := pairs[sp.from].status, pairs[sp.to-1].status
		if first == last {
			return first
		}
		return strings.Join(distinct(sp), "\x00")
	}
	type stateKey struct{ kind, status, validators string }
	states := []nodeState{}
	of := make([]int, len(nodes))
	index := map[stateKey]int{}
	for i, n := range nodes {
		sp := spans[n.NodeID]
		k := stateKey{n.Kind, n.Status, key(sp)}
		j, ok := index[k]
		if !ok {
			j = len(states)
			index[k] = j
			states = append(states, nodeState{Kind: n.Kind, Status: n.Status, Validators: distinct(sp)})
		}
		states[j].Count++
		of[i] = j
	}
	return states, of
}

// progressOf is the response's progress of nodes: counts and completeness
// as policy decided them for their states, and the validate nodes not
// complete. The decision's summary is used when execution left the states
// as they were judged; otherwise lib/progress is asked again. A policy
// that cannot answer leaves every node remaining.
func (c *Controller) progressOf(ctx context.Context, t *turn) protocol.Progress {
	if len(t.nodes) == 0 {
		// No plan: no node for policy to call complete or not.
		return protocol.Progress{PendingValidations: []protocol.PendingValidation{}}
	}
	states, of := nodeStatesOf(t.nodes)
	var decided decidedProgress
	if t.dec.hasProgress() && slices.EqualFunc(states, t.in.NodeStates, sameState) {
		decided = *t.dec.Progress
	} else if err := c.engine.EvaluateQuery(ctx, engine.ProgressQuery, map[string]any{"nodeStates": states}, &decided); err != nil {
		c.log.Error().Err(err).Msg("progress evaluation failed; reporting every node as remaining")
		decided = decidedProgress{TotalNodes: len(t.nodes), RemainingNodes: len(t.nodes)}
	}
	complete := make([]bool, len(states))
	for _, i := range decided.CompleteStates {
		if i >= 0 && i < len(complete) {
			complete[i] = true
		}
	}
	p := protocol.Progress{TotalNodes: decided.TotalNodes, CompletedNodes: decided.CompletedNodes,
		RemainingNodes: decided.RemainingNodes, PendingValidations: []protocol.PendingValidation{}}
	for i, n := range t.nodes {
		if n.Kind != "validate" || complete[of[i]] {
			continue
		}
		st := n.Status
		if st == statusPending {
			st = "not_started"
		}
		p.PendingValidations = append(p.PendingValidations, protocol.PendingValidation{NodeID: n.NodeID, Status: st})
	}
	return p
}

func sameState(a, b nodeState) bool {
	return a.Kind == b.Kind && a.Status == b.Status && a.Count == b.Count && slices.Equal(a.Validators, b.Validators)
}
