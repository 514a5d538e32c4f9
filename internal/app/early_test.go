package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/examples"
	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/graph"
)

// TestOpenBeginsTheFirstTurn checks what Open starts for the first turn:
// the first refresh, ranking's tables and the graph's first sync, and that
// the turn's own refresh still sees a change made after Open's.
func TestOpenBeginsTheFirstTurn(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	if err := examples.CopyAngularShop(ws); err != nil {
		t.Fatal(err)
	}
	a, err := Open(ctx, Options{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	<-a.first.refreshed
	if a.first.err != nil {
		t.Fatal(a.first.err)
	}
	a.first.wg.Wait()
	pc := a.first.graph
	if pc == nil {
		t.Fatal("no embedded graph")
	}
	pc.bg.wg.Wait()
	if pc.bg.started != 1 {
		t.Fatalf("graph syncs started by Open: %d, want 1", pc.bg.started)
	}
	stored, err := pc.store.Hashes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := stored[graph.SourceSyncStamp]; !ok {
		t.Fatal("Open's sync stored no stamp")
	}

	late := filepath.Join(ws, "src", "app", "late-arrival.component.ts")
	if err := os.WriteFile(late, []byte("export class LateArrivalComponent {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
	if r, err := a.Controller.Turn(ctx, raw); err != nil || len(r.Denials) > 0 {
		t.Fatalf("initialize_work: %v %v", err, r)
	}
	if !a.Index.HasFile("src/app/late-arrival.component.ts") {
		t.Error("the first turn's refresh did not see a file written after Open")
	}
}

// TestCloseRightAfterOpen checks that a process closing before its first
// turn stops what Open began and closes cleanly.
func TestCloseRightAfterOpen(t *testing.T) {
	ws := t.TempDir()
	if err := examples.CopyAngularShop(ws); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		a, err := Open(context.Background(), Options{Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNoWarmLeavesTheRefreshToTheTurn checks that Options.NoWarm (serve
// --no-warm) begins nothing: the first turn's refresh indexes the tree.
func TestNoWarmLeavesTheRefreshToTheTurn(t *testing.T) {
	ctx := context.Background()
	ws := t.TempDir()
	if err := examples.CopyAngularShop(ws); err != nil {
		t.Fatal(err)
	}
	a, err := Open(ctx, Options{Workspace: ws, NoWarm: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if a.first != nil || len(a.Index.Files()) != 0 {
		t.Fatal("Open began the first refresh with NoWarm")
	}
	raw, _ := json.Marshal(map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
	if r, err := a.Controller.Turn(ctx, raw); err != nil || len(r.Denials) > 0 {
		t.Fatalf("initialize_work: %v %v", err, r)
	}
	if len(a.Index.Files()) == 0 {
		t.Error("the first turn indexed nothing")
	}
}
