package neo4jstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

// bigChange is a change of groups sources with perGroup nodes and edges
// each, removing removed sources.
func bigChange(groups, perGroup, removed int) graph.Change {
	var c graph.Change
	for g := range groups {
		grp := graph.Group{Source: fmt.Sprintf("src/f%d.ts", g), Hash: fmt.Sprintf("h%d", g)}
		for i := range perGroup {
			grp.Nodes = append(grp.Nodes, graph.Node{ID: fmt.Sprintf("n%d-%d", g, i), Label: graph.LabelComponent, Key: "k", Source: grp.Source})
			if i > 0 {
				grp.Edges = append(grp.Edges, graph.Edge{From: fmt.Sprintf("n%d-%d", g, i), Type: graph.EdgeTypes[0], To: fmt.Sprintf("n%d-%d", g, i-1), Source: grp.Source})
			}
		}
		c.Groups = append(c.Groups, grp)
	}
	for r := range removed {
		c.Remove = append(c.Remove, fmt.Sprintf("src/gone%d.ts", r))
	}
	return c
}

// TestTransactions: a large change is cut into bounded transactions in
// applySteps' order, and every source hash is written after every node,
// edge and sweep, so a sync cut off between two transactions leaves the
// changed sources with their old hash (the next sync writes them again).
func TestTransactions(t *testing.T) {
	for _, tc := range []struct {
		note                      string
		groups, perGroup, removed int
		maxRows                   int
		wantOne                   bool
	}{
		{note: "small change, one transaction", groups: 3, perGroup: 5, removed: 2, maxRows: graph.DefaultBatchRows, wantOne: true},
		{note: "cold sync of a large repository", groups: 40, perGroup: 300, removed: 0, maxRows: graph.DefaultBatchRows},
		{note: "many removals", groups: 2, perGroup: 10, removed: 5000, maxRows: graph.DefaultBatchRows},
		{note: "tiny bound", groups: 5, perGroup: 20, removed: 3, maxRows: 7},
	} {
		t.Run(tc.note, func(t *testing.T) {
			steps, err := applySteps(bigChange(tc.groups, tc.perGroup, tc.removed), 7)
			if err != nil {
				t.Fatal(err)
			}
			txs := transactions(steps, tc.maxRows)
			if tc.wantOne != (len(txs) == 1) {
				t.Fatalf("%d transactions for %d steps", len(txs), len(steps))
			}
			i := 0
			for _, tx := range txs {
				rows := 0
				for _, st := range tx {
					if st.query != steps[i].query || st.rows != steps[i].rows {
						t.Fatalf("transactions reorder the steps at %d", i)
					}
					if st.rows > batchRows {
						t.Fatalf("step %d writes %d rows, over %d: %s", i, st.rows, batchRows, st.query)
					}
					rows += st.rows
					i++
				}
				if len(tx) > 1 && rows > tc.maxRows {
					t.Fatalf("a transaction of %d rows, over %d", rows, tc.maxRows)
				}
			}
			if i != len(steps) {
				t.Fatalf("transactions hold %d of %d steps", i, len(steps))
			}
			firstHash := -1
			for k, st := range steps {
				isHash := strings.Contains(st.query, "MERGE (g:GraphSource")
				if isHash && firstHash < 0 {
					firstHash = k
				}
				if !isHash && firstHash >= 0 {
					t.Fatalf("step %d (%s) comes after a source hash is written", k, st.query)
				}
			}
			if firstHash < 0 {
				t.Fatal("no source hash written")
			}
			swept := 0
			for _, st := range steps {
				if strings.Contains(st.query, "DETACH DELETE") {
					swept += len(st.params["sources"].([]string))
				}
			}
			if swept != tc.groups+tc.removed {
				t.Fatalf("the sweeps cover %d sources, want %d", swept, tc.groups+tc.removed)
			}
		})
	}
}
