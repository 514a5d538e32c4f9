package graph_test

import (
	"testing"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/memory"
)

// TestFileAnchorsAreFrictionAnchors: the anchor the graph gives each file
// (its IN_ANCHOR) is the one the memory learner keys friction signatures
// with under the same config graph.anchors, so a memory learned in an
// anchor names a DomainAnchor node of the graph. Defaults and custom rules.
func TestFileAnchorsAreFrictionAnchors(t *testing.T) {
	f := newFixture(t, copyWorkspace(t))
	for _, tc := range []struct {
		note    string
		depth   int
		exclude []string
	}{
		{note: "defaults"},
		{note: "depth 2", depth: 2},
		{note: "depth 1, orders excluded", depth: 1, exclude: []string{"orders"}},
		{note: "deep, a glob on a prefix excluded", depth: 5, exclude: []string{"src/app/ord*"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			facts, err := graph.Build(f.ix, nil, graph.Options{AnchorDepth: tc.depth, AnchorExclude: tc.exclude})
			if err != nil {
				t.Fatal(err)
			}
			cfg := &config.Config{}
			cfg.Graph.Anchors.MaxDepth, cfg.Graph.Anchors.Exclude = tc.depth, tc.exclude
			rules := memory.AnchorRules(cfg)
			anchors := map[string]bool{}
			files := 0
			for _, g := range facts.Groups {
				for _, n := range g.Nodes {
					if n.Label == graph.LabelDomainAnchor {
						anchors[n.Key] = true
					}
				}
			}
			for _, g := range facts.Groups {
				for _, n := range g.Nodes {
					if n.Label != graph.LabelFile {
						continue
					}
					files++
					if got, want := rules.Of(n.Key), n.Props["anchor"]; got != want {
						t.Errorf("%s: friction anchor %q, graph anchor %v", n.Key, got, want)
					}
					if !anchors[rules.Of(n.Key)] {
						t.Errorf("%s: friction anchor %q is no DomainAnchor node", n.Key, rules.Of(n.Key))
					}
				}
			}
			if files < 5 {
				t.Fatalf("only %d file nodes", files)
			}
		})
	}
}
