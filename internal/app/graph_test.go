package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/config"
)

func TestNeo4jOptions(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, ".ai/auth"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, ".ai/auth/neo4j"), []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{}
	cfg.Graph.Neo4j.URI, cfg.Graph.Neo4j.User, cfg.Graph.Neo4j.PasswordFile = "neo4j://cfg:7687", "cfguser", ".ai/auth/neo4j"
	for _, tc := range []struct {
		note           string
		env            map[string]string
		uri, user, pwd string
	}{
		{note: "from config and the password file", uri: "neo4j://cfg:7687", user: "cfguser", pwd: "s3cret"},
		{note: "environment wins", env: map[string]string{"MCPC_NEO4J_URI": "bolt://env:7687", "MCPC_NEO4J_USER": "envuser", "MCPC_NEO4J_PASSWORD": "envpw"},
			uri: "bolt://env:7687", user: "envuser", pwd: "envpw"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			o, err := neo4jOptions(ws, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if o.URI != tc.uri || o.User != tc.user || o.Password != tc.pwd {
				t.Fatalf("got %+v", o)
			}
		})
	}
	bad := *cfg
	bad.Graph.Neo4j.PasswordFile = "missing"
	if _, err := neo4jOptions(ws, &bad); err == nil || !strings.Contains(err.Error(), "passwordFile") {
		t.Fatalf("a missing password file must fail: %v", err)
	}
}

// TestGraphBackendChoice: an unknown backend is an error; neo4j without a
// URI says what to set.
func TestGraphBackendChoice(t *testing.T) {
	ws := t.TempDir()
	t.Setenv("MCPC_GRAPH_BACKEND", "janus")
	if _, err := OpenGraph(context.Background(), ws); err == nil || !strings.Contains(err.Error(), "unknown backend") {
		t.Fatalf("unknown backend: %v", err)
	}
	t.Setenv("MCPC_GRAPH_BACKEND", "neo4j")
	t.Setenv("MCPC_NEO4J_URI", "")
	if _, err := OpenGraph(context.Background(), ws); err == nil || !strings.Contains(err.Error(), "MCPC_NEO4J_URI") {
		t.Fatalf("neo4j without a URI: %v", err)
	}
	t.Setenv("MCPC_GRAPH_BACKEND", "")
	g, err := OpenGraph(context.Background(), ws)
	if err != nil || g.Backend != "embedded" {
		t.Fatalf("default: %v", err)
	}
	g.Close()
}
