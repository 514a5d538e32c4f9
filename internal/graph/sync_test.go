package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/indexer"
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
	delete(stored, graph.SourceSyncStamp)
	if len(stored) != len(fresh.Groups) {
		t.Fatalf("%d groups stored, %d built", len(stored), len(fresh.Groups))
	}
	for src, g := range fresh.Groups {
		if stored[src] != g.Hash {
			t.Errorf("group %s: stored %s, fresh %s", src, stored[src], g.Hash)
		}
	}
}

// TestSyncSkipsOnlyWhatCannotChange: a Builder's second sync with nothing
// changed builds nothing, and each thing the facts come from (an indexed
// source, a seed file, a contract, a prose document, a configured contract
// the index does not hold) makes the next sync build again and write what
// changed. A contract the index does not hold leaves the index's
// generation as it was: only the builder's own stamp can see it change.
func TestSyncSkipsOnlyWhatCannotChange(t *testing.T) {
	const dsContract = "node_modules/@acme/ds/dist/components.d.ts"
	appendTo := func(file, text string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			fh, err := os.OpenFile(filepath.Join(root, file), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			if _, err := fh.WriteString(text); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		note          string
		opts          graph.Options
		change        func(t *testing.T, root string)
		sameIndex     bool // the change is outside the index
		wantGroupDiff bool // the graph's groups change (not just a rebuild)
	}{
		{note: "a template gains a usage", change: appendTo("src/app/orders/detail/order-detail.component.html", "<sdf-badge></sdf-badge>\n"), wantGroupDiff: true},
		{note: "a seed file gains a row", wantGroupDiff: true, change: appendTo(".ai/graph/seed/intents/ui.jsonl",
			`{"id":"intent-status","type":"UIIntent","version":1,"updated_at":"2026-11-02","updated_by":"ux","intent":"status_message","components":["sdf-alert"]}`+"\n")},
		{note: "a seed file is removed", wantGroupDiff: true, change: func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, ".ai/graph/seed/migrations/adp-to-sdf.jsonl")); err != nil {
				t.Fatal(err)
			}
		}},
		{note: "the design system's contract gains a component", wantGroupDiff: true, change: appendTo("src/design-system/components.d.ts",
			`export namespace Components { interface SdfChip { "label": string; } }
declare global { interface HTMLSdfChipElement extends Components.SdfChip, HTMLElement {} interface HTMLElementTagNameMap { "sdf-chip": HTMLSdfChipElement; } }
`)},
		{note: "a prose document gains a rule", wantGroupDiff: true, opts: graph.Options{Prose: []string{"docs/*.md"}},
			change: appendTo("docs/ui-guidelines.md", "\n## Badges\n\n- Counts must use `sdf-badge`.\n")},
		{note: "a configured contract outside the index appears", sameIndex: true, wantGroupDiff: true,
			opts: graph.Options{Contracts: []string{"node_modules/@acme/ds/dist/*.d.ts"}},
			change: func(t *testing.T, root string) {
				dts := `export namespace Components { interface AcmeChip { "label": string; } }
declare global { interface HTMLAcmeChipElement extends Components.AcmeChip, HTMLElement {} interface HTMLElementTagNameMap { "acme-chip": HTMLAcmeChipElement; } }`
				if err := os.MkdirAll(filepath.Join(root, filepath.Dir(dsContract)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, dsContract), []byte(dts), 0o644); err != nil {
					t.Fatal(err)
				}
			}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			root := copyWorkspace(t)
			f := newFixture(t, root)
			f.b = graph.NewBuilder(tc.opts)
			if first := f.sync(t, false); first.Unchanged || first.Changed == 0 {
				t.Fatalf("the first sync builds and writes: %+v", first)
			}
			again := f.sync(t, false)
			if !again.Unchanged || again.Changed != 0 || again.Groups == 0 {
				t.Fatalf("a sync with nothing changed builds nothing and reports the graph: %+v", again)
			}
			gen := f.ix.Generation()
			tc.change(t, root)
			after := f.sync(t, false)
			if after.Unchanged {
				t.Fatalf("the change was not seen: %+v", after)
			}
			if got := f.ix.Generation() == gen; got != tc.sameIndex {
				t.Fatalf("index generation unchanged = %v, want %v", got, tc.sameIndex)
			}
			if tc.wantGroupDiff && after.Changed+after.Removed == 0 {
				t.Fatalf("the change wrote nothing: %+v", after)
			}
			if settled := f.sync(t, false); !settled.Unchanged {
				t.Fatalf("once written, the change is not built again: %+v", settled)
			}
		})
	}
}

// TestSyncStampAcrossProcesses: a new process (a new Index and Builder on
// the same database) finds the stamp the last sync wrote and builds
// nothing; a file changed while no process ran, or other graph options,
// make it build and write what changed.
func TestSyncStampAcrossProcesses(t *testing.T) {
	root := copyWorkspace(t)
	f := newFixture(t, root)
	f.sync(t, false)
	restart := func(o graph.Options) {
		ix, err := indexer.Open(f.st.DB(), indexer.Options{Root: root})
		if err != nil {
			t.Fatal(err)
		}
		f.ix, f.b = ix, graph.NewBuilder(o)
	}
	for _, tc := range []struct {
		note      string
		opts      graph.Options
		change    func()
		wantBuilt bool
	}{
		{note: "nothing changed", change: func() {}},
		{note: "a template changed while no process ran", wantBuilt: true, change: func() {
			tpl := filepath.Join(root, "src/app/orders/detail/order-detail.component.html")
			if err := os.WriteFile(tpl, []byte("<sdf-badge></sdf-badge>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{note: "the same files again", change: func() {}},
		{note: "other anchor options", opts: graph.Options{AnchorDepth: 1}, wantBuilt: true, change: func() {}},
		{note: "only the batch size differs", opts: graph.Options{AnchorDepth: 1, BatchRows: 7}, change: func() {}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			tc.change()
			restart(tc.opts)
			sum := f.sync(t, false)
			if sum.Unchanged == tc.wantBuilt {
				t.Fatalf("built = %v, want %v: %+v", !sum.Unchanged, tc.wantBuilt, sum)
			}
			if tc.wantBuilt && sum.Changed == 0 {
				t.Fatalf("the build wrote nothing: %+v", sum)
			}
			if !tc.wantBuilt && sum.Groups == 0 {
				t.Fatalf("an unchanged sync reports the stored graph: %+v", sum)
			}
		})
	}
}
