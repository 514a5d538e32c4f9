package graph_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/graph"
)

func TestInventory(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, copyWorkspace(t))
	f.sync(t, false)
	inv, err := graph.Inventory(ctx, f.g, "adp-")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		tag, status string
		count       int
		anchors     []string
	}
	var got []row
	for _, e := range inv {
		r := row{tag: e.Tag, count: e.Count, anchors: e.Anchors}
		if e.Migration != nil {
			r.status = e.Migration.Status
		}
		got = append(got, r)
	}
	want := []row{
		{"adp-alert", "approved", 1, []string{"src/app/orders"}},
		{"adp-button", "candidate", 3, []string{"projects/billing/src", "src/app/orders"}},
		{"adp-card", "unknown", 2, []string{"projects/billing/src", "src/app/orders"}},
		{"adp-page-header", "no_analog", 2, []string{"projects/billing/src", "src/app/orders"}},
		{"adp-table", "", 1, []string{"projects/billing/src"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	btn := inv[1].Usages
	wantBtn := []graph.InventoryUsage{
		{File: "projects/billing/src/app/billing/invoice-list.component.html", Line: 3, EndLine: 3, Anchor: "projects/billing/src", App: "projects/billing", Attrs: "type"},
		{File: "src/app/orders/detail/order-detail.component.html", Line: 3, EndLine: 3, Anchor: "src/app/orders", App: "host", Attrs: "(click)"},
		{File: "src/app/orders/grid/orders-grid.component.html", Line: 10, EndLine: 10, Anchor: "src/app/orders", App: "host", Attrs: "(click) type"},
	}
	if !reflect.DeepEqual(btn, wantBtn) {
		t.Fatalf("adp-button usages:\ngot  %+v\nwant %+v", btn, wantBtn)
	}
	sdf, err := graph.Inventory(ctx, f.g, "sdf-")
	if err != nil {
		t.Fatal(err)
	}
	if len(sdf) != 2 || sdf[0].Tag != "sdf-alert" || !sdf[0].Declared || sdf[1].Tag != "sdf-button" {
		t.Fatalf("sdf inventory lists used tags only, declared ones marked: %+v", sdf)
	}
}

func TestGrounding(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, copyWorkspace(t))
	f.sync(t, false)
	for _, tc := range []struct {
		note     string
		policy   string
		grounded bool
	}{
		{"repository-wide rule on a used component is grounded", "prose:docs/ui-guidelines.md:5", true},
		{"rule on a component nobody uses in its scope is advisory", "prose:docs/ui-guidelines.md:10", false},
		{"rule that names no component is advisory", "prose:skills.md:3", false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			g, err := graph.Ground(ctx, f.g, tc.policy)
			if err != nil || g == nil {
				t.Fatalf("%v %v", g, err)
			}
			if g.Grounded != tc.grounded || (len(g.Examples) > 0) != tc.grounded {
				t.Fatalf("grounding: %+v", g)
			}
		})
	}
}

func TestExportDeltas(t *testing.T) {
	root := copyWorkspace(t)
	f := newFixture(t, root)
	out := filepath.Join(t.TempDir(), "out")
	build := func() *graph.Facts {
		if _, err := f.ix.Refresh(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		seeds, err := graph.LoadSeeds(root)
		if err != nil {
			t.Fatal(err)
		}
		facts, err := graph.Build(f.ix, seeds, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return facts
	}
	now := time.Date(2026, 11, 25, 1, 0, 0, 0, time.UTC)
	first, err := graph.Export(build(), out, now)
	if err != nil || first.File == "" || first.Groups == 0 {
		t.Fatalf("first export: %+v %v", first, err)
	}
	second, err := graph.Export(build(), out, now.Add(time.Second))
	if err != nil || second.File != "" || second.Rows != 0 {
		t.Fatalf("nothing changed, nothing written: %+v %v", second, err)
	}
	if err := os.Remove(filepath.Join(root, "skills.md")); err != nil {
		t.Fatal(err)
	}
	third, err := graph.Export(build(), out, now.Add(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	rows := readRows(t, third.File)
	want := []graph.ExportRow{{Kind: "remove", Source: "file:skills.md"}, {Kind: "remove", Source: "prose:skills.md"}}
	if !reflect.DeepEqual(rows, want) {
		t.Fatalf("delta: %+v", rows)
	}
}

func readRows(t *testing.T, file string) []graph.ExportRow {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []graph.ExportRow
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		var r graph.ExportRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}
