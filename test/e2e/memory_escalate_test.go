package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestEscalateListsActiveMemoriesOfNewFiles: escalate's pack answer lists
// the active memories of the grown pack's domains, so a memory anchored
// where escalation brought new files reaches the agent; records not in
// force on the clock (pending in their contest window, past expiresAt,
// rejected) do not.
func TestEscalateListsActiveMemoriesOfNewFiles(t *testing.T) {
	t.Setenv("MCPC_NOW", "2026-11-25T00:00:00Z")
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(`{"pack": {"maxFiles": 2}}`), 0o644))
	must(t, os.MkdirAll(filepath.Join(ws, ".ai", "memory"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "memory", "records.json"), []byte(`[
		{"id": "grid-note", "state": "approved", "enforcementType": "informational", "domainAnchorIds": ["anchor:src/app/orders"],
		 "note": "column definitions live in the grid component"},
		{"id": "grid-pending", "state": "pending", "enforcementType": "informational", "createdAt": "2026-11-24T00:00:00Z",
		 "domainAnchorIds": ["anchor:src/app/orders"]},
		{"id": "grid-gone", "state": "approved", "enforcementType": "informational", "expiresAt": "2026-11-24T00:00:00Z",
		 "domainAnchorIds": ["anchor:src/app/orders"]},
		{"id": "grid-no", "state": "rejected", "enforcementType": "informational", "domainAnchorIds": ["anchor:src/app/orders"]}
	]`), 0o644))
	a := startServer(t, ws)
	init := a.initialize("Fix the stock warning on the dashboard", "dashboard")
	before := packFiles(init)
	if slices.ContainsFunc(before, func(f string) bool { return strings.HasPrefix(f, "src/app/orders/") }) {
		t.Fatalf("the dashboard pack already holds orders files: %v", before)
	}
	if ids := anyIDs(init.ContextPack["activeMemories"]); slices.Contains(ids, "grid-note") {
		t.Errorf("initialize_work lists %v for a pack without orders files", ids)
	}
	esc := a.turn("escalate", map[string]any{"need": "the orders grid component with its ag-Grid columnDefs and cell renderer"})
	mustAllow(t, esc)
	if !slices.Contains(packFiles(esc), "src/app/orders/orders-grid.component.ts") {
		t.Fatalf("escalate did not add the grid: %v", packFiles(esc))
	}
	ids := anyIDs(esc.ContextPack["activeMemories"])
	if !slices.Equal(ids, []string{"grid-note"}) {
		t.Errorf("escalate activeMemories = %v, want [grid-note] (not pending, expired or rejected records)", ids)
	}
}

// TestTraceFewShotsFollowTheRecords: trace_symbol_graph's few-shots are
// those in force now: a person's change of records.json between two
// traces shows in the next one (the answer is not kept past a change).
func TestTraceFewShotsFollowTheRecords(t *testing.T) {
	t.Setenv("MCPC_NOW", "2026-11-25T00:00:00Z")
	ws := newWorkspace(t)
	records := filepath.Join(ws, ".ai", "memory", "records.json")
	must(t, os.MkdirAll(filepath.Dir(records), 0o755))
	write := func(state string) {
		must(t, os.WriteFile(records, []byte(`[{"id": "dash-shot", "state": "`+state+`", "enforcementType": "few_shot",
			"domainAnchorIds": ["anchor:src/app/dashboard"], "fewShot": {"instruction": "cite the MigrationRule"}}]`), 0o644))
	}
	write("approved")
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	shots := func() []string {
		r := a.turn("trace_symbol_graph", map[string]any{"targetFile": demo.Target})
		mustAllow(t, r)
		return anyIDsBy(r.Result["fewShots"], "memoryId")
	}
	if got := shots(); !slices.Equal(got, []string{"dash-shot"}) {
		t.Fatalf("fewShots = %v, want [dash-shot]", got)
	}
	if got := shots(); !slices.Equal(got, []string{"dash-shot"}) {
		t.Fatalf("second trace fewShots = %v, want [dash-shot]", got)
	}
	write("rejected")
	if got := shots(); len(got) != 0 {
		t.Errorf("after the record was rejected fewShots = %v", got)
	}
	write("approved")
	if got := shots(); !slices.Equal(got, []string{"dash-shot"}) {
		t.Errorf("after the record was approved again fewShots = %v", got)
	}
}
