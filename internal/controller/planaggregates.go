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
	// IDs are the nodes' nodeId values (any JSON value) in node order,
	// duplicates kept, of the nodes that have one.
	IDs []any `json:"ids"`
	// ChangeIDs are the change nodes' string nodeIds.
	ChangeIDs []any `json:"changeIds"`
	// Mapped are the validate nodes' mapsToNodeIds entries.
	Mapped []any `json:"mapped"`
	// ChangeOperations are the change nodes' operation values.
	ChangeOperations []any `json:"changeOperations"`
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
	// TagNodes are, per tag a change node names (nodeTags), the indexes
	// of the change nodes that name it; null without a tag pattern (policy
	// then finds the tags and migrations node by node).
	TagNodes map[string][]int `json:"tagNodes"`
	// TargetNodes are, per string targetFile, the indexes of the change
	// nodes that change it.
	TargetNodes map[string][]int `json:"targetNodes"`
	// TagTargets are, per tag a string targetFile uses by the graph's
	// facts (input.enforcement.fileTags), those targetFiles, sorted
	// (tagTargets); null until those facts are gathered, and then policy
	// joins them itself.
	TagTargets map[string][]string `json:"tagTargets"`
	// RefNodes are, per string policyRefs entry, the indexes of the change
	// nodes that cite it.
	RefNodes map[string][]int `json:"refNodes"`
	// Untargeted are the indexes of the change nodes without a targetFile.
	Untargeted []int `json:"untargeted"`
	// TrueNodes are, per field of flagFields, the indexes of the change
	// nodes whose field is true (JSON true, nothing else).
	TrueNodes map[string][]int `json:"trueNodes"`
	// TextNodes are, per field of textFields, the indexes of the change
	// nodes whose field is a string that is not blank (what is left after
	// trimming white space, as Rego's trim_space trims it, is not "").
	TextNodes map[string][]int `json:"textNodes"`
	// RecipeMapped are, per string recipeId of a validate node's
	// verificationHooks, the distinct mapsToNodeIds entries of the validate
	// nodes that have such a hook.
	RecipeMapped map[string][]any `json:"recipeMapped"`
	// EvidenceCounts are the distinct [len(citations), len(codeEvidence)]
	// of the change nodes, set only when every change node has both as
	// arrays (policy counts any other shape itself).
	EvidenceCounts [][2]int `json:"evidenceCounts,omitempty"`
}

// flagFields and textFields are the change-node fields the low-evidence
// path and the fallback are read from (lib/enforcement guarded_indexes,
// fallback_indexes): reported by field, policy says what they make.
var (
	flagFields = []string{"lowEvidenceGuard", "requiresHumanReview"}
	textFields = []string{"uncertaintyNote", "fallback"}
)

// distinctValues collects JSON values once each.
type distinctValues map[string]any

// add adds what Rego's `some x in v` visits in v.
func (d distinctValues) addEach(v any) {
	for _, x := range elements(v) {
		d.add(x)
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
// not an array (policy then has no nodes to walk). nodeTags are
// changeNodeTags' per node.
func gatherPlanAggregates(submission map[string]any, nodeTags [][]string) *planAggregates {
	nodes, ok := submission["nodes"].([]any)
	if !ok {
		return nil
	}
	deps, citations, hooks := distinctValues{}, distinctValues{}, distinctValues{}
	targets, evidence, mappings := distinctValues{}, distinctValues{}, distinctValues{}
	changeIDs, mapped, operations := distinctValues{}, distinctValues{}, distinctValues{}
	counts := map[[2]int]bool{}
	counted := true
	a := &planAggregates{KindIndexes: map[string][]int{}, IDs: []any{},
		TargetNodes: map[string][]int{}, RefNodes: map[string][]int{}, Untargeted: []int{},
		TrueNodes: map[string][]int{}, TextNodes: map[string][]int{}, RecipeMapped: map[string][]any{}}
	for _, f := range flagFields {
		a.TrueNodes[f] = []int{}
	}
	for _, f := range textFields {
		a.TextNodes[f] = []int{}
	}
	recipeMapped := map[string]distinctValues{}
	if nodeTags != nil {
		a.TagNodes = map[string][]int{}
	}
	for i, n := range nodes {
		m, ok := n.(map[string]any)
		if !ok {
			continue
		}
		kind, isString := m["kind"].(string)
		if isString {
			a.KindIndexes[kind] = append(a.KindIndexes[kind], i)
		}
		id, hasID := m["nodeId"]
		if hasID {
			a.IDs = append(a.IDs, id)
		}
		if kind == "validate" {
			mapped.addEach(m["mapsToNodeIds"])
			for _, recipe := range hookRecipes(m["verificationHooks"]) {
				if recipeMapped[recipe] == nil {
					recipeMapped[recipe] = distinctValues{}
				}
				recipeMapped[recipe].addEach(m["mapsToNodeIds"])
			}
		}
		deps.addEach(m["dependsOn"])
		citations.addEach(m["citations"])
		hooks.addEach(m["verificationHooks"])
		if kind != "change" {
			continue
		}
		if v, ok := m["targetFile"]; ok {
			targets.add(v)
			if file, ok := v.(string); ok {
				a.TargetNodes[file] = append(a.TargetNodes[file], i)
			}
		} else {
			a.Untargeted = append(a.Untargeted, i)
		}
		if nodeTags != nil {
			for _, tag := range nodeTags[i] {
				a.TagNodes[tag] = append(a.TagNodes[tag], i)
			}
		}
		for _, f := range flagFields {
			if m[f] == true {
				a.TrueNodes[f] = append(a.TrueNodes[f], i)
			}
		}
		for _, f := range textFields {
			if text, ok := m[f].(string); ok && strings.TrimSpace(text) != "" {
				a.TextNodes[f] = append(a.TextNodes[f], i)
			}
		}
		for _, ref := range stringRefs(m["policyRefs"]) {
			a.RefNodes[ref] = append(a.RefNodes[ref], i)
		}
		if s, ok := id.(string); ok {
			changeIDs.add(s)
		}
		if v, ok := m["operation"]; ok {
			operations.add(v)
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
	a.Dependencies, a.Citations, a.Hooks = deps.list(), citations.list(), hooks.list()
	a.ChangeTargets, a.ChangeEvidence, a.ComponentMappings = targets.list(), evidence.list(), mappings.list()
	a.ChangeIDs, a.Mapped, a.ChangeOperations = changeIDs.list(), mapped.list(), operations.list()
	for recipe, ids := range recipeMapped {
		a.RecipeMapped[recipe] = ids.list()
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

// elements are what Rego's `some x in v` visits in v: an array's
// elements, an object's values, nothing of anything else.
func elements(v any) []any {
	switch v := v.(type) {
	case []any:
		return v
	case map[string]any:
		out := make([]any, 0, len(v))
		for _, x := range v {
			out = append(out, x)
		}
		return out
	}
	return nil
}

// hookRecipes are the distinct string recipeIds of a verificationHooks
// value's hooks, as policy's `some hook in node.verificationHooks;
// hook.recipeId == ...` reads them.
func hookRecipes(v any) []string {
	var out []string
	for _, h := range elements(v) {
		if m, ok := h.(map[string]any); ok {
			if recipe, ok := m["recipeId"].(string); ok && !slices.Contains(out, recipe) {
				out = append(out, recipe)
			}
		}
	}
	return out
}

// stringRefs are the distinct strings among a policyRefs value's entries,
// as policy reads them.
func stringRefs(v any) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range elements(v) {
		if s, ok := x.(string); ok && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
