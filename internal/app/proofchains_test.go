package app

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/graph"
)

func copyGraphWorkspace(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "graph", "testdata", "workspace")
	ws := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(ws, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(ws, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// indexedChains is proofChains over a copy of the graph's test workspace,
// its index refreshed and its graph not yet synced.
func indexedChains(t *testing.T) (string, *Graph, *proofChains) {
	t.Helper()
	ws := copyGraphWorkspace(t)
	g, err := OpenGraph(context.Background(), ws)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	if _, err := g.Index.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return ws, g, &proofChains{store: g.Store, builder: graph.NewBuilder(g.Options), ix: g.Index, code: &codeIndex{ix: g.Index, root: ws}, sync: true, root: ws}
}

// TestProofChainsWalk: the hook syncs the embedded graph and returns the
// chains policy named that a work's signals touch; an invalid seed row does not take chains
// away (seeds do not change how code connects).
func TestProofChainsWalk(t *testing.T) {
	ctx := context.Background()
	ws, _, pc := indexedChains(t)
	walk := func(s controller.ChainSignals) ([]string, []map[string]any) {
		t.Helper()
		if err := pc.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if s.Chains == nil {
			s.Chains = []string{graph.ChainAgGrid, graph.ChainFederation}
		}
		res, err := pc.Walk(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for _, c := range res.Candidates {
			files = append(files, c.File)
			if len(c.Lanes) != 1 || c.Lanes[0] != "proof_chain" {
				t.Fatalf("lanes: %+v", c)
			}
		}
		var chains []map[string]any
		if len(res.Chains) > 0 {
			if err := json.Unmarshal(res.Chains, &chains); err != nil {
				t.Fatal(err)
			}
		}
		return files, chains
	}
	files, chains := walk(controller.ChainSignals{Prompt: "show the revenue report totals", Files: []string{"projects/billing/src/app/reports/revenue-report.component.ts"}})
	if len(chains) != 1 || chains[0]["kind"] != "federation" || len(files) != 5 {
		t.Fatalf("a billing report task gets the reports federation chain: %v %v", files, chains)
	}
	if files, _ := walk(controller.ChainSignals{Prompt: "fix the login form", Files: []string{"src/app/login/login.component.ts"}}); len(files) != 0 {
		t.Fatalf("no signal, no chain: %v", files)
	}
	if files, _ := walk(controller.ChainSignals{Prompt: "show the revenue report totals", Files: []string{"projects/billing/src/app/reports/revenue-report.component.ts"}, Chains: []string{}}); len(files) != 0 {
		t.Fatalf("policy asked for no chain, none is walked: %v", files)
	}
	if _, chains := walk(controller.ChainSignals{Prompt: "show the revenue report totals", Files: []string{"projects/billing/src/app/reports/revenue-report.component.ts"}, Chains: []string{graph.ChainAgGrid}}); len(chains) > 0 && chains[0]["kind"] != "ag-grid" {
		t.Fatalf("only the chains policy names are walked: %v", chains)
	}
	seed := filepath.Join(ws, ".ai/graph/seed/intents/ui.jsonl")
	if err := os.WriteFile(seed, []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if files, _ := walk(controller.ChainSignals{Prompt: "orders grid", Files: []string{"src/app/orders/orders.service.ts"}}); len(files) == 0 {
		t.Fatal("an invalid seed row took the chains away")
	}
}

// TestGraphSyncOutlivesTheTurn: a turn whose step ends before the graph's
// sync does reads the last synced graph, and the sync goes on writing, so
// a first sync longer than any turn's step (a 48,000-file tree's) is
// finished by the process instead of begun again by every turn; stopping
// the process's syncs leaves it one that has ended.
func TestGraphSyncOutlivesTheTurn(t *testing.T) {
	ctx := context.Background()
	_, g, pc := indexedChains(t)
	turn, cancel := context.WithCancel(ctx)
	cancel() // a step already over: the turn does not wait
	if err := pc.Sync(turn); err != nil {
		t.Fatalf("a turn whose step ended: %v", err)
	}
	pc.bg.wg.Wait() // the sync the turn started, run to its end
	stored, err := g.Store.Hashes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := stored[graph.SourceSyncStamp]; !ok || len(stored) < 2 {
		t.Fatalf("the sync did not finish after its turn stopped waiting: %d sources stored, stamp %v", len(stored), ok)
	}
	// The next turn finds the graph synced: nothing left to write.
	if err := pc.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if pc.bg.started != 2 {
		t.Fatalf("syncs started: %d, want 2 (the turn's, then one from the refreshed index)", pc.bg.started)
	}
	pc.bg.stop()
	if pc.bg.running != nil {
		t.Fatal("a sync still runs after stop")
	}
}
