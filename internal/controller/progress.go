package controller

import (
	"encoding/json"

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

func decodeNode(n store.Node) planNode {
	var p planNode
	_ = json.Unmarshal(n.Body, &p)
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

// progress counts completed nodes. A change node is complete when patched
// and every validate node mapped to it passed; validate when passed;
// side_effect when executed; escalate when resolved (ARCHITECTURE §5).
type progress struct {
	total, completed int
	pending          []protocol.PendingValidation
}

func countProgress(nodes []store.Node) progress {
	p := progress{total: len(nodes), pending: []protocol.PendingValidation{}}
	status := map[string]string{}
	validators := map[string][]string{} // change node -> validate nodes mapping to it
	for _, n := range nodes {
		status[n.NodeID] = n.Status
		if n.Kind == "validate" {
			for _, m := range n.MapsTo {
				validators[m] = append(validators[m], n.NodeID)
			}
		}
	}
	for _, n := range nodes {
		done := false
		switch n.Kind {
		case "change":
			done = n.Status == statusPatched
			for _, v := range validators[n.NodeID] {
				done = done && status[v] == statusPassed
			}
		case "validate":
			done = n.Status == statusPassed
			if !done {
				st := n.Status
				if st == statusPending {
					st = "not_started"
				}
				p.pending = append(p.pending, protocol.PendingValidation{NodeID: n.NodeID, Status: st})
			}
		case "side_effect":
			done = n.Status == statusExecuted
		case "escalate":
			done = n.Status == statusResolved
		}
		if done {
			p.completed++
		}
	}
	return p
}

func (p progress) counts() progressCounts {
	return progressCounts{TotalNodes: p.total, CompletedNodes: p.completed, RemainingNodes: p.total - p.completed}
}

func (p progress) wire() protocol.Progress {
	return protocol.Progress{TotalNodes: p.total, CompletedNodes: p.completed, RemainingNodes: p.total - p.completed, PendingValidations: p.pending}
}
