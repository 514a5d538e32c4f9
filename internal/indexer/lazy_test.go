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
// adds and removes files with an index that counts from the store (mcpc
// index) and so never builds a view, and checks
// after each step that it holds no facts in memory, that its summary
// counts are those of a view built from scratch on the same database, and
// that the view it loads when asked equals that one.
func TestRefreshWithoutViewKeepsOnlyStamps(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	ix, err := Open(openDB(t, dbDir), Options{Root: root, CountsFromStore: true})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		note    string
		change  func()
		recount bool // the counts must be counted again, not derived or read back
	}{
		{note: "a cold build", change: func() {}, recount: true},
		{note: "nothing changed", change: func() {}},
		{note: "a file touched without a content change", change: func() {
			later := time.Now().Add(time.Hour)
			if err := os.Chtimes(filepath.Join(root, "src/app/orders/orders.service.ts"), later, later); err != nil {
				t.Fatal(err)
			}
		}},
		{note: "a body changes and an import and a symbol reference are added", change: func() {
			writeFile(t, root, "src/app/dashboard/dashboard.component.ts", []byte("import { Component } from '@angular/core';\nimport { OrdersService } from '../orders/orders.service';\nimport { formatTotal } from '../../../server/api/format';\n@Component({ selector: 'app-dashboard', templateUrl: './dashboard.component.html' })\nexport class DashboardComponent {\n  constructor(private orders: OrdersService) {}\n  total() { return formatTotal(DataTableComponent.size); }\n}\n"))
		}},
		{note: "a definition other files name is renamed", recount: true, change: func() {
			writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class OrdersStore {}\n"))
		}},
		{note: "a file added and one removed", recount: true, change: func() {
			writeFile(t, root, "src/app/orders/orders.model.ts", []byte("export interface OrderModel { id: string }\n"))
			if err := os.Remove(filepath.Join(root, "server/api/format.js")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, st := range steps {
		t.Run(st.note, func(t *testing.T) {
			st.change()
			recounts := ix.recounts
			sum, err := ix.Refresh(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if recounted := ix.recounts > recounts; recounted != st.recount {
				t.Errorf("counted from the whole database: %v, want %v", recounted, st.recount)
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
// database are those of its latest generation or are counted again: a
// serving process stores its view's counts after its own write, but not
// after a write of another process it has not read.
func TestStoredCountsFollowOtherWriters(t *testing.T) {
	root := copyWorkspace(t)
	dbDir := t.TempDir()
	ctx := context.Background()
	open := func() *Index {
		ix, err := Open(openDB(t, dbDir), Options{Root: root, CountsFromStore: true})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	refresh := func(ix *Index) Summary {
		sum, err := ix.Refresh(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	stored := func() map[string]int64 {
		meta, err := readMeta(ctx, openDB(t, dbDir))
		if err != nil {
			t.Fatal(err)
		}
		return meta
	}
	batch := open() // mcpc index: no view
	built := refresh(batch)
	if m := stored(); m[metaGeneration] == 0 || m[metaCountsGeneration] != m[metaGeneration] || m[metaEdges] != int64(built.Edges) {
		t.Fatalf("counts not stored after the build: %v, summary %+v", m, built)
	}
	served, err := Open(openDB(t, dbDir), Options{Root: root}) // serve: a view
	if err != nil {
		t.Fatal(err)
	}
	refresh(served)
	if !served.loaded {
		t.Fatal("a serving index's refresh did not load the view it is opened for")
	}
	writeFile(t, root, "src/app/orders/orders.audit.ts", []byte("import { OrdersService } from './orders.service';\nexport class OrdersAudit { constructor(s: OrdersService) {} }\n"))
	after := refresh(served)
	if after.Edges <= built.Edges || after.Symbols <= built.Symbols {
		t.Fatalf("the new file's edges and symbols are not counted: before %+v, after %+v", built, after)
	}
	if m := stored(); m[metaCountsGeneration] != m[metaGeneration] || m[metaEdges] != int64(after.Edges) || m[metaSymbols] != int64(after.Symbols) {
		t.Errorf("the serving process's counts were not stored after its write: %v, summary %+v", m, after)
	}
	// Both write in turn: the batch index's write is one the serving
	// process has not read, so the counts of its next write are not stored.
	writeFile(t, root, "src/app/orders/orders.audit.ts", []byte("export class OrdersAudit {}\n"))
	refresh(batch)
	writeFile(t, root, "server/api/format.js", []byte("export function formatCurrency(amount) { return amount; }\n"))
	refresh(served)
	if m := stored(); served.generation != -1 || m[metaCountsGeneration] == m[metaGeneration] {
		t.Errorf("counts stored by a process that missed a write: %v", m)
	}
	// A new process parses nothing and counts again.
	fresh := refresh(open())
	want := open().current()
	if got, w := [3]int{fresh.Symbols, fresh.Edges, fresh.Usages}, [3]int{len(want.symbols), len(want.edges), len(want.usages)}; fresh.Reparsed != 0 || got != w {
		t.Errorf("a new process reports %v (reparsed %d), a view of the database has %v", got, fresh.Reparsed, w)
	}
}

// TestStampsReadFromCoveringIndex checks that the stamps a process opens
// with are read from idx_files_stamps, not from the table whose rows hold
// every file's terms (ten times the pages at 47,550 files).
func TestStampsReadFromCoveringIndex(t *testing.T) {
	root := copyWorkspace(t)
	db := openDB(t, t.TempDir())
	ix, err := Open(db, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	rows, err := db.Query("EXPLAIN QUERY PLAN " + stampsQuery)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if want := "SCAN idx_files USING COVERING INDEX idx_files_stamps"; len(plan) != 1 || plan[0] != want {
		t.Errorf("plan %q, want [%q]", plan, want)
	}
}
