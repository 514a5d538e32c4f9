package indexer

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestRefreshWithoutViewKeepsOnlyStamps indexes a tree, edits, touches,
// adds and removes files with an index that never built a view, and checks
// after each step that it holds no facts in memory, that its summary
// counts are those of a view built from scratch on the same database, and
// that the view it loads when asked equals that one.
func TestRefreshWithoutViewKeepsOnlyStamps(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	ix, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		note   string
		change func()
	}{
		{note: "a cold build", change: func() {}},
		{note: "nothing changed", change: func() {}},
		{note: "a file touched without a content change", change: func() {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(root, "src/app/orders/orders.service.ts"), later, later); err != nil {
				t.Fatal(err)
			}
		}},
		{note: "a definition other files name is renamed", change: func() {
			writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class OrdersStore {}\n"))
		}},
		{note: "a file added and one removed", change: func() {
			writeFile(t, root, "src/app/orders/orders.model.ts", []byte("export interface OrderModel { id: string }\n"))
			if err := os.Remove(filepath.Join(root, "server/api/format.js")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, st := range steps {
		t.Run(st.note, func(t *testing.T) {
			st.change()
			sum, err := ix.Refresh(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if ix.loaded || ix.view != nil {
				t.Fatal("a refresh built a view nobody asked for")
			}
			for p, f := range ix.files {
				if f.Symbols != nil || f.Refs != nil || f.Usages != nil || f.Terms != nil {
					t.Fatalf("%s: facts held in memory", p)
				}
			}
			fresh, err := Open(openDB(t, dbDir), Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			want := fresh.current()
			got := [4]int{len(want.files), len(want.symbols), len(want.edges), len(want.usages)}
			if counts := [4]int{sum.Files, sum.Symbols, sum.Edges, sum.Usages}; counts != got {
				t.Errorf("summary counts %+v, a view of the database has %+v", counts, got)
			}
			if sum.Files == 0 || sum.Symbols == 0 || sum.Edges == 0 || sum.Usages == 0 {
				t.Errorf("nothing counted: %+v", sum)
			}
			clean, _ := indexWorkspace(t, root)
			compareViews(t, want, clean.current())
		})
	}
	// Loading later gives the view a build from scratch gives.
	clean, _ := indexWorkspace(t, root)
	compareViews(t, ix.current(), clean.current())
	if got := ix.FileSymbols("src/app/orders/orders.service.ts"); len(got) != 1 || got[0].Name != "OrdersStore" {
		t.Errorf("symbols of the edited file after the load: %+v", got)
	}
}

// TestStreamedEdgesEqualView checks that resolving the stored references
// one file at a time gives the edges a view resolves, in its order.
func TestStreamedEdgesEqualView(t *testing.T) {
	ix, _ := indexWorkspace(t, copyWorkspace(t))
	var symbols []Symbol
	var edges []Edge
	err := streamEdges(context.Background(), ix.db, ix.files, ix.opts.Root,
		func(s Symbol) { symbols = append(symbols, s) },
		func(_ string, es []Edge) { edges = append(edges, es...) })
	if err != nil {
		t.Fatal(err)
	}
	v := ix.current()
	if !reflect.DeepEqual(symbols, v.symbols) {
		t.Errorf("streamed %d symbols, the view has %d (or in another order)", len(symbols), len(v.symbols))
	}
	if len(edges) == 0 || !reflect.DeepEqual(edges, v.edges) {
		t.Errorf("streamed edges differ from the view's:\n got %v\nwant %v", edges, v.edges)
	}
}

// TestStoredCountsFollowOtherWriters checks that the counts kept in the
// database are reused only while no write happened: another process that
// changes a file moves the generation, and the next summary is counted
// again.
func TestStoredCountsFollowOtherWriters(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	ctx := context.Background()
	first, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	before, err := first.Refresh(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := readMeta(ctx, first.db)
	if err != nil {
		t.Fatal(err)
	}
	if meta[metaGeneration] == 0 || meta[metaCountsGeneration] != meta[metaGeneration] || meta[metaEdges] != int64(before.Edges) {
		t.Fatalf("counts not stored after the build: %v, summary %+v", meta, before)
	}
	// Another process, one that serves and so has a view, adds a file
	// importing the service.
	second, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	second.current()
	writeFile(t, root, "src/app/orders/orders.audit.ts", []byte("import { OrdersService } from './orders.service';\nexport class OrdersAudit { constructor(s: OrdersService) {} }\n"))
	served, err := second.Refresh(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if served.Edges <= before.Edges || served.Symbols <= before.Symbols {
		t.Fatalf("the new file's edges and symbols are not counted: before %+v, after %+v", before, served)
	}
	// A new process finds nothing to parse; the counts stored by the first
	// are of before the second's write and must not be reported.
	third, err := Open(openDB(t, dbDir), Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	after, err := third.Refresh(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if after.Reparsed != 0 || after.Edges != served.Edges || after.Symbols != served.Symbols || after.Usages != served.Usages {
		t.Errorf("after another process's write: %+v, it reported %+v", after, served)
	}
}
