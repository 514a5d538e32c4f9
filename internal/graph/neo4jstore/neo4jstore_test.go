package neo4jstore_test

import (
	"context"
	"os"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/graph/neo4jstore"
	"github.com/mcpc/mcpc/internal/graph/storetest"
)

// TestNeo4jBehaviour runs the shared suite against a real Neo4j 5 when
// NEO4J_URI (and NEO4J_USER, NEO4J_PASSWORD, optionally NEO4J_DATABASE) name
// one. The suite clears the graph it writes: point it at a test database.
func TestNeo4jBehaviour(t *testing.T) {
	uri := os.Getenv("NEO4J_URI")
	if uri == "" {
		t.Skip("NEO4J_URI is not set: the Neo4j run of the graph behaviour suite was skipped (the embedded run always happens)")
	}
	opts := neo4jstore.Options{URI: uri, User: os.Getenv("NEO4J_USER"), Password: os.Getenv("NEO4J_PASSWORD"), Database: os.Getenv("NEO4J_DATABASE")}
	storetest.Run(t, func(t *testing.T) graph.Store {
		s, err := neo4jstore.Open(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}
