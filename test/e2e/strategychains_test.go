package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpc/mcpc/internal/protocol"
)

// packChains reads the proof chains context-pack.json records, by kind.
func packChains(t *testing.T, ws string, r *protocol.TurnResponse) []string {
	t.Helper()
	ref, _ := r.ContextPack["ref"].(string)
	raw, err := os.ReadFile(filepath.Join(ws, ref))
	must(t, err)
	var pack struct {
		ProofChains []struct {
			Kind string `json:"kind"`
		} `json:"proofChains"`
	}
	must(t, json.Unmarshal(raw, &pack))
	var kinds []string
	for _, c := range pack.ProofChains {
		kinds = append(kinds, c.Kind)
	}
	return kinds
}

// chainLaneFiles are the pack's files ranked on the proof_chain lane.
func chainLaneFiles(t *testing.T, ws string, r *protocol.TurnResponse) []string {
	t.Helper()
	ref, _ := r.ContextPack["ref"].(string)
	raw, err := os.ReadFile(filepath.Join(ws, ref))
	must(t, err)
	var pack struct {
		Ranking []struct {
			File  string   `json:"file"`
			Lanes []string `json:"lanes"`
		} `json:"ranking"`
	}
	must(t, json.Unmarshal(raw, &pack))
	var out []string
	for _, r := range pack.Ranking {
		if slices.Contains(r.Lanes, "proof_chain") {
			out = append(out, r.File)
		}
	}
	return out
}

// TestProofChainsFollowStrategy: which proof chains initialize_work walks
// is the strategy decision's (its ContextSignature), not Go's. On the
// Angular workspace with an ag-Grid renderer and a federated remote, a grid
// prompt gets the ag-Grid chain, a federation prompt the federation chain,
// and a prompt about renaming a button on a page that is itself on the grid
// chain gets the neutral strategy and no chain.
func TestProofChainsFollowStrategy(t *testing.T) {
	ws := graphWorkspace(t)
	a := startServer(t, ws, "--no-warm")
	for _, tc := range []struct {
		note     string
		prompt   string
		strategy string
		chains   []string
	}{
		{"grid", "Clicking an order id in the orders grid cell renderer should open the order detail page", "ui_aggrid_feature", []string{"ag-grid"}},
		{"federation", "The revenue report of the federated billing remote shows the wrong total", "general_change", []string{"federation"}},
		{"neutral", "Rename the Print button on the order detail page to Print order", "general_change", nil},
	} {
		t.Run(tc.note, func(t *testing.T) {
			r := a.turn("initialize_work", map[string]any{"lexemes": []string{}}, "originalPrompt", tc.prompt)
			mustAllow(t, r)
			if got, _ := r.Strategy["strategyId"].(string); got != tc.strategy {
				t.Errorf("strategy %q, want %q: %v", got, tc.strategy, r.Strategy["reasons"])
			}
			var decided []string
			raw, _ := json.Marshal(r.Strategy["proofChains"])
			must(t, json.Unmarshal(raw, &decided))
			if !slices.Equal(decided, tc.chains) && (len(decided) > 0 || len(tc.chains) > 0) {
				t.Errorf("the strategy decision names chains %v, want %v", decided, tc.chains)
			}
			kinds := packChains(t, ws, r)
			for _, want := range tc.chains {
				if !slices.Contains(kinds, want) {
					t.Errorf("context-pack.json records chains %v, want a %s chain", kinds, want)
				}
			}
			for _, k := range kinds {
				if !slices.Contains(tc.chains, k) {
					t.Errorf("context-pack.json records a %s chain the strategy did not ask for", k)
				}
			}
			if lanes := chainLaneFiles(t, ws, r); tc.chains == nil && len(lanes) > 0 {
				t.Errorf("a neutral prompt's pack ranks files on the proof_chain lane: %v", lanes)
			}
		})
	}
}
