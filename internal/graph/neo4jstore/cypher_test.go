package neo4jstore

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

// These check the Cypher this package sends without a server: every schema
// statement is idempotent Neo4j 5 syntax, and node rows carry values only
// as parameters.
func TestSchemaStatements(t *testing.T) {
	constraint := regexp.MustCompile(`^CREATE CONSTRAINT graph_[a-z_]+ IF NOT EXISTS FOR \(n:[A-Z][A-Za-z]+\) REQUIRE n\.id IS UNIQUE$|^CREATE CONSTRAINT graph_source_id IF NOT EXISTS FOR \(s:GraphSource\) REQUIRE s\.id IS UNIQUE$`)
	index := regexp.MustCompile(`^CREATE INDEX graph_[a-z_]+ IF NOT EXISTS FOR (\(n:[A-Z][A-Za-z]+\) ON \(n\.(key|source)\)|\(\)-\[r:[A-Z_]+\]-\(\) ON \(r\.source\))$`)
	stmts := schemaStatements()
	names := map[string]bool{}
	for _, s := range stmts {
		if !constraint.MatchString(s) && !index.MatchString(s) {
			t.Errorf("not an idempotent Neo4j 5 schema statement: %s", s)
		}
		name := strings.Fields(s)[2]
		if names[name] {
			t.Errorf("schema name %s used twice", name)
		}
		names[name] = true
	}
	if want := 3 + 2*len(graph.Labels) + len(graph.EdgeTypes); len(stmts) != want {
		t.Fatalf("%d statements, want %d", len(stmts), want)
	}
}

func TestNodeRow(t *testing.T) {
	row, err := nodeRow(graph.Node{ID: "n1", Label: "Component", Key: "adp-x", Source: "s",
		Props: map[string]any{"tag": "adp-x", "count": 2, "id": "spoofed", "nested": map[string]any{"a": 1}}}, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"id": "n1", "p": map[string]any{
		"id": "n1", "label": "Component", "key": "adp-x", "source": "s", "gen": int64(7),
		"props": `{"count":2,"id":"spoofed","nested":{"a":1},"tag":"adp-x"}`,
		"tag":   "adp-x", "count": 2,
	}}
	if !reflect.DeepEqual(row, want) {
		t.Fatalf("got  %#v\nwant %#v", row, want)
	}
}
