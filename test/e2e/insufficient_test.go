package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPackInsufficient: a template that fails to parse makes the pack
// pack_insufficient for that scope (seed 000 gotcha 7): the work starts, the
// response says what is missing, and no plan is accepted until it is fixed.
func TestPackInsufficient(t *testing.T) {
	ws := newWorkspace(t)
	broken := "src/app/dashboard/broken-widget.component.html"
	must(t, os.WriteFile(filepath.Join(ws, broken), []byte("<adp-alert type=\"warning\" [message]=\"x\"\n  <div <<< @if (a { </adp-alert\n"), 0o644))
	a := startServer(t, ws)
	init := a.initialize("Migrate the broken widget from adp-alert to sdf-alert", "broken-widget", "adp-alert")
	if !slices.Contains(packFiles(init), broken) {
		t.Fatalf("the broken template did not rank into the pack: %v", packFiles(init))
	}
	if init.Outcome != "pack_insufficient" || init.PackInsufficiency == nil {
		t.Fatalf("outcome %q packInsufficiency %v", init.Outcome, init.PackInsufficiency)
	}
	mustDeny(t, a.turn("submit_execution_plan", map[string]any{"planGraph": map[string]any{"nodes": []any{}}}), "PACK_INSUFFICIENT")
}
