package neo4jstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

// clientsDir holds the npm packages the tests run under Node
// (test/clients/package.json), Neo4j's Cypher language support among them.
var clientsDir = filepath.Join("..", "..", "..", "test", "clients")

type lintStatement struct {
	Name   string         `json:"name"`
	Query  string         `json:"query"`
	Params map[string]any `json:"params"`
}

type lintResult struct {
	Name        string `json:"name"`
	Diagnostics []struct {
		Severity int    `json:"severity"`
		Message  string `json:"message"`
		Offset   *int   `json:"offset"`
	} `json:"diagnostics"`
}

// everyStatement is every statement the store sends: the schema, the
// writes of an Apply that touches every label and edge type (and a type
// outside EdgeTypes), and every read.
func everyStatement(t *testing.T) []lintStatement {
	t.Helper()
	var out []lintStatement
	for i, q := range schemaStatements() {
		out = append(out, lintStatement{Name: fmt.Sprintf("schema[%d]", i), Query: q})
	}
	g := graph.Group{Source: "src/a.ts", Hash: "h1"}
	for i, l := range graph.Labels {
		g.Nodes = append(g.Nodes, graph.Node{ID: fmt.Sprintf("n%d", i), Label: l, Key: "k", Source: g.Source, Props: map[string]any{"tag": "adp-x", "n": 1}})
	}
	for _, ty := range append(append([]string(nil), graph.EdgeTypes...), "CUSTOM_LINK") {
		g.Edges = append(g.Edges, graph.Edge{From: "n0", Type: ty, To: "n1", Source: g.Source, Props: map[string]any{"line": 3}})
	}
	steps, err := applySteps(graph.Change{Groups: []graph.Group{g}, Remove: []string{"src/gone.ts"}}, 7)
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range steps {
		out = append(out, lintStatement{Name: fmt.Sprintf("apply[%d]", i), Query: st.query, Params: st.params})
	}
	reads := map[string]lintStatement{
		"hashes":     {Query: hashesQuery},
		"node":       {Query: nodeQuery, Params: map[string]any{"id": "n0"}},
		"nodes":      {Query: nodesQuery(graph.LabelComponent, false), Params: map[string]any{"prefix": "adp-"}},
		"nodesLimit": {Query: nodesQuery(graph.LabelComponent, true), Params: map[string]any{"prefix": "adp-", "limit": 10}},
		"edgesOut":   {Query: edgesOutQuery, Params: map[string]any{"id": "n0", "types": []string{}}},
		"edgesIn":    {Query: edgesInQuery, Params: map[string]any{"id": "n0", "types": []string{"USES"}}},
		"countNodes": {Query: countNodesQuery},
		"countEdges": {Query: countEdgesQuery},
	}
	for name, st := range reads {
		st.Name = name
		out = append(out, st)
	}
	return out
}

// TestCypherAcceptedByNeo4jLanguageSupport checks every statement with
// Neo4j's own Cypher 5 parser and semantic analysis
// (@neo4j-cypher/language-support, run under Node): no syntax error, no
// undefined variable or parameter, no deprecated syntax or function. No
// Neo4j server can run on the machines the tests run on; this is what can
// be checked without one. It cannot check what only a server decides at
// run time: property value types, constraint violations, the query plans
// and whether the indexes are used.
func TestCypherAcceptedByNeo4jLanguageSupport(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the Cypher check by Neo4j's language support was skipped")
	}
	if _, err := os.Stat(filepath.Join(clientsDir, "node_modules", "@neo4j-cypher", "language-support")); err != nil {
		t.Skip("test/clients has no @neo4j-cypher/language-support (run `make clients`): the Cypher check was skipped")
	}
	stmts := everyStatement(t)
	// The check must be able to fail: a Neo4j 4 constraint and an
	// undefined variable go to the same run and must be refused.
	bad := []lintStatement{
		{Name: "neo4j4", Query: "CREATE CONSTRAINT ON (n:GraphNode) ASSERT n.id IS UNIQUE"},
		{Name: "undefined", Query: "MATCH (n:GraphNode) RETURN m"},
	}
	in, err := json.Marshal(append(append([]lintStatement(nil), stmts...), bad...))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "cypher-lint.mjs")
	cmd.Dir = clientsDir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("cypher-lint: %v\n%s", err, stderr.String())
	}
	var results []lintResult
	if err := json.Unmarshal(outb, &results); err != nil {
		t.Fatalf("cypher-lint output: %v\n%s", err, outb)
	}
	if len(results) != len(stmts)+len(bad) {
		t.Fatalf("%d results for %d statements", len(results), len(stmts)+len(bad))
	}
	for i, r := range results[:len(stmts)] {
		for _, d := range r.Diagnostics {
			t.Errorf("%s: severity %d: %s\n  %s", r.Name, d.Severity, d.Message, stmts[i].Query)
		}
	}
	for _, r := range results[len(stmts):] {
		if len(r.Diagnostics) == 0 {
			t.Errorf("%s: the language support accepted a statement Neo4j 5 refuses", r.Name)
		}
	}
	t.Logf("%d statements checked by Neo4j's language support; the %d known-bad ones were refused", len(stmts), len(bad))
}
