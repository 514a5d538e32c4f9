package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

func TestSyncIncremental(t *testing.T) {
	ctx := context.Background()
	root := copyWorkspace(t)
	f := newFixture(t, root)
	first := f.sync(t, false)
	if first.Changed != first.Groups || first.Groups == 0 {
		t.Fatalf("first sync writes every group: %+v", first)
	}
	again := f.sync(t, false)
	if again.Changed != 0 || again.Removed != 0 {
		t.Fatalf("a second sync with no change must write nothing: %+v", again)
	}
	full := f.sync(t, true)
	if full.Changed != full.Groups {
		t.Fatalf("--full rewrites every group: %+v", full)
	}

	// One template changes: its group, the inventory (a new tag, a tag gone)
	// and the migration seeds (their edge to the gone adp-alert) change.
	tpl := filepath.Join(root, "src/app/orders/detail/order-detail.component.html")
	if err := os.WriteFile(tpl, []byte("<adp-badge tone=\"info\"></adp-badge>\n<sdf-button label=\"x\"></sdf-button>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	one := f.sync(t, false)
	if one.Changed != 3 || one.Removed != 0 {
		t.Fatalf("want the file, the inventory and the seed group, got %+v", one)
	}
	if _, ok, _ := f.g.Node(ctx, "usage:src/app/orders/detail/order-detail.component.html:1:adp-alert"); ok {
		t.Fatal("the old usage survived")
	}
	if _, ok, _ := f.g.Node(ctx, "component:adp-alert"); ok {
		t.Fatal("a tag no longer used or declared should leave the inventory")
	}
	if _, ok, _ := f.g.Node(ctx, "usage:src/app/orders/detail/order-detail.component.html:1:adp-badge"); !ok {
		t.Fatal("the new usage is missing")
	}
	// The seed edge to adp-alert went with the component; sdf-button's
	// usages from other groups kept their edges.
	checkEdges(t, f.g, "component:sdf-button", 1, []string{"INSTANCE_OF usage:src/app/orders/detail/order-detail.component.html:2:sdf-button"})

	// A file removed: its group goes.
	if err := os.Remove(filepath.Join(root, "skills.md")); err != nil {
		t.Fatal(err)
	}
	gone := f.sync(t, false)
	if gone.Removed != 2 { // file:skills.md and prose:skills.md
		t.Fatalf("want two groups removed, got %+v", gone)
	}
	if _, ok, _ := f.g.Node(ctx, "prose:skills.md:3"); ok {
		t.Fatal("prose of a removed document survived")
	}

	// The fixture's Builder reused unchanged files' groups across these
	// syncs; what it stored must be what a fresh build makes.
	seeds, err := graph.LoadSeeds(root)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := graph.Build(f.ix, seeds, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	stored, _ := f.g.Hashes(ctx)
	if len(stored) != len(fresh.Groups) {
		t.Fatalf("%d groups stored, %d built", len(stored), len(fresh.Groups))
	}
	for src, g := range fresh.Groups {
		if stored[src] != g.Hash {
			t.Errorf("group %s: stored %s, fresh %s", src, stored[src], g.Hash)
		}
	}
}
