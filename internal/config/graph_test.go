package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGraphConfig(t *testing.T) {
	for _, tc := range []struct {
		note    string
		repo    string
		backend string
		depth   int
		wantErr string
	}{
		{note: "defaults", repo: `{}`, backend: "embedded", depth: 3},
		{note: "neo4j with anchors", repo: `{"graph": {"backend": "neo4j", "neo4j": {"uri": "neo4j://graph:7687", "user": "mcpc", "passwordFile": ".ai/auth/neo4j"}, "anchors": {"maxDepth": 2, "exclude": ["legacy"]}, "prose": ["docs/*.md"]}}`, backend: "neo4j", depth: 2},
		{note: "unknown backend", repo: `{"graph": {"backend": "janus"}}`, wantErr: "graph.backend"},
		{note: "a password in config is not a key", repo: `{"graph": {"neo4j": {"password": "x"}}}`, wantErr: "graph.neo4j"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ws := t.TempDir()
			if err := os.MkdirAll(filepath.Join(ws, ".ai/config"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(ws, ".ai/config/repo.json"), []byte(tc.repo), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := Load(ws)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("want an error naming %s, got %v", tc.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Graph.Backend != tc.backend || c.Graph.Anchors.MaxDepth != tc.depth {
				t.Fatalf("graph config: %+v", c.Graph)
			}
		})
	}
}
