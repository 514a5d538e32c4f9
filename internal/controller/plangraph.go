package controller

import (
	"regexp"
	"sort"
)

// submissionFacts are what Go counts and walks in a submitted plan so the
// plan rules need not: graph walks are linear here and quadratic in Rego.
type submissionFacts struct {
	// CycleNodes are the node ids on a dependency cycle (self-loops included),
	// sorted. Dangling dependencies are ignored here; policy reports them.
	CycleNodes []string `json:"cycleNodes"`
	// NodeShapes are the distinct [kind, field names] of the nodes that are
	// objects with a kind; nil (null) outside a submission, and then policy
	// works them out itself (as for a decision recorded before this fact).
	NodeShapes []nodeShape `json:"nodeShapes,omitempty"`
	// AllKinded says every node is an object with a kind field.
	AllKinded bool `json:"allKinded"`
	// NodeTags are, per node in node order, the tags a change node names
	// in its editIntent and targetSymbols (null for other nodes); nil
	// outside a submission, and then policy finds them itself.
	NodeTags [][]string `json:"nodeTags,omitempty"`
	// NamedTags are the tags all change nodes name, sorted.
	NamedTags []string `json:"namedTags,omitempty"`
	// Aggregates are the distinct values lib/plan's views collect, nil
	// (absent) outside a submission whose nodes is an array; policy then
	// walks the nodes itself.
	Aggregates *planAggregates `json:"aggregates,omitempty"`
}

// SubmissionFactsOf is the facts Go reports about a submitted planGraph
// (input.submissionFacts) whose targets use the tags fileTags says
// (input.enforcement.fileTags), for benchmarks that build their own plans
// (with the embedded policy's tag pattern).
func SubmissionFactsOf(planGraph map[string]any, fileTags map[string][]string) any {
	f := gatherSubmissionFacts(planGraph, embeddedTagPattern())
	f.addTagTargets(fileTags)
	return f
}

// gatherSubmissionFacts walks the plan; pattern is the loaded policy's tag
// pattern (nil: no tag facts, policy finds the tags).
func gatherSubmissionFacts(planGraph map[string]any, pattern *regexp.Regexp) submissionFacts {
	f := submissionFacts{CycleNodes: cycleNodes(planGraph)}
	f.NodeShapes, f.AllKinded = nodeShapes(planGraph)
	f.NodeTags, f.NamedTags = changeNodeTags(planGraph, pattern)
	f.Aggregates = gatherPlanAggregates(planGraph, f.NodeTags)
	return f
}

// cycleNodes runs Tarjan's strongly connected components over dependsOn.
func cycleNodes(submission map[string]any) []string {
	nodes, _ := submission["nodes"].([]any)
	deps := map[string][]string{}
	var order []string
	for _, n := range nodes {
		m, _ := n.(map[string]any)
		id, _ := m["nodeId"].(string)
		if id == "" {
			continue
		}
		if _, seen := deps[id]; !seen {
			order = append(order, id)
		}
		deps[id] = append(deps[id], stringList(m["dependsOn"])...)
	}
	index, low := map[string]int{}, map[string]int{}
	onStack := map[string]bool{}
	var stack, out []string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range deps[v] {
			if _, known := deps[w]; !known {
				continue
			}
			if _, done := index[w]; !done {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var scc []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			scc = append(scc, w)
			if w == v {
				break
			}
		}
		if len(scc) > 1 || selfLoop(v, deps[v]) {
			out = append(out, scc...)
		}
	}
	for _, v := range order {
		if _, done := index[v]; !done {
			visit(v)
		}
	}
	sort.Strings(out)
	if out == nil {
		out = []string{}
	}
	return out
}

func selfLoop(v string, deps []string) bool {
	for _, d := range deps {
		if d == v {
			return true
		}
	}
	return false
}
