package e2e

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// graphWorkspace copies internal/graph's Angular testdata workspace (ag-Grid
// renderer, federated remote, components.d.ts, seeds, prose).
func graphWorkspace(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "..", "internal", "graph", "testdata", "workspace")
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

// TestGraphCLI runs mcpc graph sync, inventory, chain and export on the
// real binary.
func TestGraphCLI(t *testing.T) {
	ws := graphWorkspace(t)
	out, err := runCLI(ws, "graph", "sync")
	if err != nil {
		t.Fatalf("graph sync: %v\n%s", err, out)
	}
	var sum struct {
		Backend string         `json:"backend"`
		Changed int            `json:"changed"`
		Nodes   map[string]int `json:"nodes"`
	}
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err, out)
	}
	if sum.Backend != "embedded" || sum.Changed == 0 || sum.Nodes["MigrationRule"] != 4 || sum.Nodes["UsageExample"] != 13 {
		t.Fatalf("sync summary: %s", out)
	}
	out, err = runCLI(ws, "graph", "inventory", "--prefix", "adp-")
	if err != nil {
		t.Fatalf("graph inventory: %v\n%s", err, out)
	}
	var inv struct {
		Tags []struct {
			Tag    string `json:"tag"`
			Usages []struct {
				File   string `json:"file"`
				Line   int    `json:"line"`
				Anchor string `json:"anchor"`
				App    string `json:"app"`
			} `json:"usages"`
		} `json:"tags"`
	}
	if err := json.Unmarshal([]byte(out), &inv); err != nil {
		t.Fatal(err, out)
	}
	if len(inv.Tags) != 5 || inv.Tags[4].Tag != "adp-table" || inv.Tags[4].Usages[0].App != "projects/billing" || inv.Tags[4].Usages[0].Line != 2 {
		t.Fatalf("inventory: %s", out)
	}
	out, err = runCLI(ws, "graph", "chain", "--kind", "federation")
	if err != nil || !strings.Contains(out, `"destinationComponent"`) || !strings.Contains(out, "invoice-list.component.ts") {
		t.Fatalf("graph chain: %v\n%s", err, out)
	}
	out, err = runCLI(ws, "graph", "facts", "--file", "src/app/orders/detail/order-detail.component.html")
	if err != nil || !strings.Contains(out, `"mig-adp-alert"`) || !strings.Contains(out, `"grounded": true`) {
		t.Fatalf("graph facts: %v\n%s", err, out)
	}
	out, err = runCLI(ws, "graph", "export")
	if err != nil || !strings.Contains(out, `"rows"`) {
		t.Fatalf("graph export: %v\n%s", err, out)
	}
	if m, _ := filepath.Glob(filepath.Join(ws, ".ai/graph/out/delta-*.jsonl")); len(m) != 1 {
		t.Fatalf("export wrote %v", m)
	}

	// One bad seed row fails the sync with its location; the graph keeps
	// its content (the inventory still answers).
	seed := filepath.Join(ws, ".ai/graph/seed/intents/ui.jsonl")
	f, _ := os.OpenFile(seed, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"bad","type":"MacroConstraint","version":1,"updated_at":"2026-11-01","updated_by":"x","ifContains":"sdf-alert"}` + "\n")
	f.Close()
	out, err = runCLI(ws, "graph", "sync")
	if err == nil || !strings.Contains(out, ".ai/graph/seed/intents/ui.jsonl:4: forbid: missing property") {
		t.Fatalf("bad seed: %v\n%s", err, out)
	}
	out, err = runCLI(ws, "graph", "inventory")
	if err != nil || !strings.Contains(out, "adp-page-header") {
		t.Fatalf("inventory after a failed sync: %v\n%s", err, out)
	}
}

// TestProofChainInPack: initialize_work on a grid task puts every file of
// the ag-Grid chain in the pack and records the chain in context-pack.json.
func TestProofChainInPack(t *testing.T) {
	ws := graphWorkspace(t)
	a := startServer(t, ws)
	r := a.initialize("Clicking an order id in the orders grid cell renderer should open the order detail page", "OrdersGridComponent", "ag-grid")
	mustAllow(t, r)
	files := packFiles(r)
	want := []string{
		"src/app/orders/grid/orders-grid.component.html", "src/app/orders/grid/orders-grid.component.ts",
		"src/app/orders/grid/order-link.renderer.ts", "src/app/app.routes.ts", "src/app/orders/detail/order-detail.component.ts",
		"src/app/orders/orders.service.ts", "src/app/orders/order.model.ts",
	}
	for _, f := range want {
		if !slices.Contains(files, f) {
			t.Errorf("chain file %s not in the pack %v", f, files)
		}
	}
	ref, _ := r.ContextPack["ref"].(string)
	raw, err := os.ReadFile(filepath.Join(ws, ref))
	if err != nil {
		t.Fatal(err)
	}
	var pack struct {
		ProofChains []struct {
			Kind     string `json:"kind"`
			Complete bool   `json:"complete"`
			Steps    []struct {
				Role string `json:"role"`
				File string `json:"file"`
			} `json:"steps"`
			Edges []struct {
				From, To, Type, Via string
			} `json:"edges"`
		} `json:"proofChains"`
		Ranking []struct {
			File  string   `json:"file"`
			Lanes []string `json:"lanes"`
		} `json:"ranking"`
	}
	if err := json.Unmarshal(raw, &pack); err != nil {
		t.Fatal(err)
	}
	if len(pack.ProofChains) == 0 || pack.ProofChains[0].Kind != "ag-grid" || !pack.ProofChains[0].Complete || len(pack.ProofChains[0].Steps) != 8 {
		t.Fatalf("proofChains: %s", raw)
	}
	for _, r := range pack.Ranking {
		if r.File == "src/app/orders/order.model.ts" && !slices.Contains(r.Lanes, "proof_chain") {
			t.Fatalf("a chain file's ranking must name the proof_chain lane: %+v", r)
		}
	}
}
