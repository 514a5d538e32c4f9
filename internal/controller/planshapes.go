package controller

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
)

// nodeShape is one distinct [kind, field names] of the submitted nodes.
// A plan of any size usually has one per kind, so the field rules
// (node-fields, unknown-node-kind) check a handful of shapes instead of
// building a key set per node in Rego.
type nodeShape struct {
	// Kind is the node's kind as sent (any JSON value, null included).
	Kind any `json:"kind"`
	// Fields are the node's field names, sorted.
	Fields []string `json:"fields"`
}

// nodeShapes reports the distinct shapes of the nodes that are objects
// with a kind field, sorted, and whether every node is such an object
// (a submission whose nodes is not an array has none, and all are).
func nodeShapes(submission map[string]any) (shapes []nodeShape, allKinded bool) {
	nodes, _ := submission["nodes"].([]any)
	allKinded = true
	type keyed struct {
		key   string
		shape nodeShape
	}
	var distinct []keyed
	seen := map[string]bool{}
	for _, n := range nodes {
		m, ok := n.(map[string]any)
		if !ok {
			allKinded = false
			continue
		}
		kind, ok := m["kind"]
		if !ok {
			allKinded = false
			continue
		}
		fields := make([]string, 0, len(m))
		for k := range m {
			fields = append(fields, k)
		}
		sort.Strings(fields)
		kindJSON, err := json.Marshal(kind)
		if err != nil { // a decoded JSON value always marshals; keep the node's shape apart anyway
			kindJSON = []byte(err.Error())
		}
		key := string(kindJSON) + "\x00" + strings.Join(fields, "\x00")
		if !seen[key] {
			seen[key] = true
			distinct = append(distinct, keyed{key, nodeShape{Kind: kind, Fields: fields}})
		}
	}
	// sorted by key so the fact does not depend on node order
	slices.SortFunc(distinct, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	shapes = make([]nodeShape, len(distinct))
	for i, d := range distinct {
		shapes[i] = d.shape
	}
	return shapes, allKinded
}
