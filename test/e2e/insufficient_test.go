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

// TestAttachments: inline attachments and files dropped in .ai/inbox/ become
// pack attachments; an inline attachment that does not decode is refused and
// creates no work.
func TestAttachments(t *testing.T) {
	ws := newWorkspace(t)
	must(t, os.MkdirAll(filepath.Join(ws, ".ai", "inbox"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "inbox", "ticket-SHOP-12.md"), []byte("Stock warning must use sdf-alert"), 0o644))
	a := startServer(t, ws)
	bad := a.turn("initialize_work", map[string]any{"attachments": []any{map[string]any{"type": "screenshot", "ref": "inline:base64:%%%"}}}, "originalPrompt", "x")
	mustDeny(t, bad, "INVALID_ARGS")
	if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work")); err == nil {
		t.Fatalf("a refused initialize_work created a work")
	}
	init := a.turn("initialize_work", map[string]any{"attachments": []any{
		map[string]any{"type": "screenshot", "ref": "inline:base64:aGVsbG8=", "caption": "dashboard.component.html today"},
	}}, "originalPrompt", "Migrate the dashboard alert")
	mustAllow(t, init)
	atts, _ := init.ContextPack["attachments"].([]any)
	if len(atts) != 2 {
		t.Fatalf("attachments %v", atts)
	}
	for _, x := range atts {
		ref := x.(map[string]any)["ref"].(string)
		if _, err := os.Stat(filepath.Join(ws, ref)); err != nil {
			t.Errorf("attachment %s not stored: %v", ref, err)
		}
	}
	// The caption names a file: the artifact lane put it in the pack.
	if !slices.Contains(packFiles(init), "src/app/dashboard/dashboard.component.html") {
		t.Errorf("the file an attachment names is not in the pack: %v", packFiles(init))
	}
}
