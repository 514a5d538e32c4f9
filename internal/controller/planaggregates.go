package controller

import (
	"encoding/json"
	"slices"
	"strings"
)

// planAggregates are the distinct values the plan rules test as guards
// before they walk every node (lib/plan's views), gathered in one walk of
// the nodes in Go instead of one pass per view in Rego. Each list holds
// what a Rego `some x in node.field` over the nodes would visit (an
// array's elements, an object's values), each distinct value once, sorted
// by its JSON text so the fact does not depend on node order.
type planAggregates struct {
	// KindIndexes are, per string kind, the indexes of the nodes of that
	// kind in node order.
	KindIndexes map[string][]int `json:"kindIndexes"`
	// Dependencies are every node's dependsOn entries.
	Dependencies []any `json:"dependencies"`
	// Citations are every node's citations.
	Citations []any `json:"citations"`
	// Hooks are every node's verificationHooks.
	Hooks []any `json:"hooks"`
	// ChangeTargets are the change nodes' targetFile values (any JSON
	// value, null included, when the field is there).
	ChangeTargets []any `json:"changeTargets"`
	// ChangeEvidence are the change nodes' codeEvidence entries.
	ChangeEvidence []any `json:"changeEvidence"`
	// ComponentMappings are the change nodes' componentMapping values.
	ComponentMappings []any `json:"componentMappings"`
	// EvidenceCounts are the distinct [len(citations), len(codeEvidence)]
	// of the change nodes, set only when every change node has both as
	// arrays (policy counts any other shape itself).
	EvidenceCounts [][2]int `json:"evidenceCounts,omitempty"`
}

// distinctValues collects JSON values once each.
type distinctValues map[string]any

// add adds what Rego's `some x in v` visits in v.
func (d distinctValues) addEach(v any) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			d.add(x)
		}
	case map[string]any:
		for _, x := range v {
			d.add(x)
		}
	}
}

func (d distinctValues) add(v any) {
	key, err := json.Marshal(v) // maps marshal with sorted keys: equal values, equal text
	if err != nil {             // a decoded JSON value always marshals; keep it apart anyway
		key = []byte(err.Error())
	}
	d[string(key)] = v
}

func (d distinctValues) list() []any {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = d[k]
	}
	return out
}

// gatherPlanAggregates walks the submitted nodes once; nil when nodes is
// not an array (policy then has no nodes to walk).
func gatherPlanAggregates(submission map[string]any) *planAggregates {
	nodes, ok := submission["nodes"].([]any)
	if !ok {
		return nil
	}
	deps, citations, hooks := distinctValues{}, distinctValues{}, distinctValues{}
	targets, evidence, mappings := distinctValues{}, distinctValues{}, distinctValues{}
	counts := map[[2]int]bool{}
	counted := true
	kinds := map[string][]int{}
	for i, n := range nodes {
		m, ok := n.(map[string]any)
		if !ok {
			continue
		}
		kind, _ := m["kind"].(string)
		if _, ok := m["kind"].(string); ok {
			kinds[kind] = append(kinds[kind], i)
		}
		deps.addEach(m["dependsOn"])
		citations.addEach(m["citations"])
		hooks.addEach(m["verificationHooks"])
		if kind != "change" {
			continue
		}
		if v, ok := m["targetFile"]; ok {
			targets.add(v)
		}
		if v, ok := m["componentMapping"]; ok {
			mappings.add(v)
		}
		evidence.addEach(m["codeEvidence"])
		c, okC := m["citations"].([]any)
		e, okE := m["codeEvidence"].([]any)
		counted = counted && okC && okE
		if counted {
			counts[[2]int{len(c), len(e)}] = true
		}
	}
	a := &planAggregates{
		KindIndexes: kinds, Dependencies: deps.list(), Citations: citations.list(), Hooks: hooks.list(),
		ChangeTargets: targets.list(), ChangeEvidence: evidence.list(), ComponentMappings: mappings.list(),
	}
	if counted {
		a.EvidenceCounts = make([][2]int, 0, len(counts))
		for row := range counts {
			a.EvidenceCounts = append(a.EvidenceCounts, row)
		}
		slices.SortFunc(a.EvidenceCounts, func(x, y [2]int) int {
			if x[0] != y[0] {
				return x[0] - y[0]
			}
			return x[1] - y[1]
		})
	}
	return a
}
