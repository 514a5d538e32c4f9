package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMemoryRecordsPolicyCounts: the memory lane boosts the files under the
// domain anchors of the records policy counts (approved and provisional),
// not those of a pending record.
func TestMemoryRecordsPolicyCounts(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.MkdirAll(filepath.Join(ws, ".ai", "memory"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "memory", "records.json"), []byte(`[
		{"id": "m1", "state": "approved", "domainAnchorIds": ["anchor:src/app/orders"]},
		{"id": "m2", "state": "pending", "domainAnchorIds": ["src/app/shared"]}
	]`), 0o644))
	a := startServer(t, ws)
	init := a.initialize("Fix the stock warning on the dashboard", "dashboard")
	ranking, _ := init.ContextPack["ranking"].([]any)
	boosted := map[string]bool{}
	for _, r := range ranking {
		entry, _ := r.(map[string]any)
		lanes, _ := entry["lanes"].([]any)
		for _, l := range lanes {
			if l == "memory" {
				boosted[entry["file"].(string)] = true
			}
		}
	}
	if len(boosted) == 0 {
		t.Fatalf("no file has the memory lane: %v", ranking)
	}
	for f := range boosted {
		if !strings.HasPrefix(f, "src/app/orders/") {
			t.Errorf("%s has the memory lane; only the approved record's anchor src/app/orders should", f)
		}
	}
}
