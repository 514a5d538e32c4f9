package indexer

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// TestIncrementalViewMatchesFullBuild edits files one refresh at a time (a
// renamed definition, a moved selector, a new import, changed terms, a Go
// package, a template) and checks after each that the view derived from the
// previous one is exactly what a build from scratch gives.
func TestIncrementalViewMatchesFullBuild(t *testing.T) {
	root := copyWorkspace(t)
	ix, _ := indexWorkspace(t, root)
	ix.current()
	steps := []struct {
		note  string
		file  string
		src   string
		delta bool              // whether the view must have been derived, not rebuilt
		also  map[string]string // other files written in the same refresh
	}{
		{note: "a definition other files name is renamed", file: "src/app/orders/orders.service.ts", delta: true,
			src: "import { Injectable } from '@angular/core';\nexport const DEFAULT_PAGE_SIZE = 50;\n@Injectable({ providedIn: 'root' })\nexport class OrdersStore {\n  load() { return fetchOrders(); }\n}\n"},
		{note: "the definition comes back", file: "src/app/orders/orders.service.ts", delta: true,
			src: "import { Injectable } from '@angular/core';\nimport { formatTotal } from '../../../server/api/format';\nexport const DEFAULT_PAGE_SIZE = 20;\n@Injectable({ providedIn: 'root' })\nexport class OrdersService {\n  load(pageSize = DEFAULT_PAGE_SIZE) { return formatTotal(pageSize); }\n}\nexport class OrdersStore {}\n"},
		{note: "a component's selector moves", file: "src/app/shared/ui/data-table/data-table.component.ts", delta: true,
			src: "import { Component } from '@angular/core';\n@Component({ selector: 'adp-grid-table', template: '<adp-table-row></adp-table-row>' })\nexport class DataTableComponent {}\n"},
		{note: "a template uses other elements", file: "src/app/dashboard/dashboard.component.html", delta: true,
			src: "<section><adp-grid-table [rows]=\"orders\"></adp-grid-table><sdf-badge></sdf-badge></section>\n"},
		{note: "a Go file changes", file: "go/internal/ledger/ledger.go", delta: true,
			src: "package ledger\n\n// Entry is a posting.\ntype Entry struct{ Amount int }\n\nfunc Post(e Entry) int { return e.Amount }\n"},
		{note: "a new file changes the file set", file: "src/app/orders/orders.store.ts", delta: true,
			src: "export class OrdersStore { size = 1; }\n"},
		{note: "an edit after the set changed", file: "src/app/orders/orders.store.ts", delta: true,
			src: "import { OrdersService } from './orders.service';\nimport { OrderModel } from './orders.model';\nimport { OrdersGridComponent } from './grid';\nexport class OrdersStore { constructor(private s: OrdersService) {} }\n"},
		{note: "a new file an import was waiting for", file: "src/app/orders/orders.model.ts", delta: true,
			src: "export interface OrderModel { id: string }\n"},
		{note: "a file an import resolved to is removed", file: "server/api/format.js", delta: true},
		{note: "a new index file takes a folder import", file: "src/app/orders/grid/index.ts", delta: true,
			src: "export * from './orders-grid.component';\n"},
		{note: "a Python module appears", file: "py/billing/rates.py", delta: true,
			src: "from .tax import TaxTable\n\nclass Rates:\n    pass\n"},
		{note: "a Java class is removed", file: "java/src/main/java/com/acme/billing/TaxTable.java", delta: true},
		{note: "an edit and a new file in one refresh", file: "src/app/orders/orders.service.ts", delta: true,
			src:  "export const DEFAULT_PAGE_SIZE = 30;\nexport class OrdersService { load() { return 1; } }\n",
			also: map[string]string{"src/app/orders/orders.audit.ts": "import { OrdersService } from './orders.service';\nexport class OrdersAudit { constructor(s: OrdersService) {} }\n"}},
		{note: "a removal and an edit in one refresh", file: "src/app/orders/orders.audit.ts", delta: true,
			also: map[string]string{"src/app/orders/orders.service.ts": "export const DEFAULT_PAGE_SIZE = 40;\nexport class OrdersService { load() { return 2; } reload() {} }\n"}},
		{note: "the import aliases change", file: "tsconfig.json",
			src: "{ \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@orders/*\": [\"src/app/orders/*\"] } } }\n"},
	}
	for _, st := range steps {
		t.Run(st.note, func(t *testing.T) {
			before := ix.current()
			derived := ix.derivedViews
			if st.src == "" {
				if err := os.Remove(filepath.Join(root, st.file)); err != nil {
					t.Fatal(err)
				}
			} else {
				writeFile(t, root, st.file, []byte(st.src))
			}
			for f, src := range st.also {
				writeFile(t, root, f, []byte(src))
			}
			if _, err := ix.Refresh(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			got := ix.current()
			if delta := ix.derivedViews > derived; delta != st.delta {
				t.Fatalf("derived from the previous view: %v, want %v", delta, st.delta)
			}
			if got == before {
				t.Fatal("the view did not change")
			}
			for p, f := range ix.files {
				if f.Refs != nil || !f.refsUnread {
					t.Fatalf("%s holds its references after the view was derived", p)
				}
			}
			compareViews(t, got, storedView(t, ix))
		})
	}
}

func compareViews(t *testing.T, got, want *view) {
	t.Helper()
	got, want = got.lookups(), want.lookups()
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"files", got.files, want.files},
		{"symbols", got.symbols, want.symbols},
		{"edges", got.edges, want.edges},
		{"edgesFrom", got.edgesFrom, want.edgesFrom},
		{"edgesTo", got.edgesTo, want.edgesTo},
		{"usages", got.usages, want.usages},
		{"corpus files", got.corpus.Files, want.corpus.Files},
		{"corpus lengths", got.corpus.Lens, want.corpus.Lens},
		{"corpus sizes", got.corpus.Sizes, want.corpus.Sizes},
		{"corpus languages", got.corpus.Langs, want.corpus.Langs},
		{"average length", got.corpus.AvgLen, want.corpus.AvgLen},
	} {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s differ:\n got %v\nwant %v", c.name, c.got, c.want)
		}
	}
	terms := map[string]bool{}
	for term := range want.corpus.terms {
		terms[term] = true
	}
	for term := range got.corpus.terms {
		terms[term] = true
	}
	for term := range got.corpus.overlay {
		terms[term] = true
	}
	for term := range terms {
		g, w := got.corpus.Postings(term), want.corpus.Postings(term)
		if len(g) != 0 || len(w) != 0 {
			if !reflect.DeepEqual(g, w) {
				t.Errorf("postings of %q: got %v, want %v", term, g, w)
			}
		}
	}
}

// TestWalkReusesUnchangedDirectories checks that a walk after the first
// reads again only the directories that changed, and still sees every
// edit, addition, removal and .gitignore change.
func TestWalkReusesUnchangedDirectories(t *testing.T) {
	root := copyWorkspace(t)
	age(t, root)
	walk := func(prev map[string]*listing) *walker {
		t.Helper()
		w := &walker{root: root, maxBytes: DefaultMaxFileBytes, prev: prev}
		if err := w.walk(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		return w
	}
	sizes := func(w *walker) map[string]int64 {
		out := map[string]int64{}
		for _, c := range w.files {
			out[c.Rel] = c.Size
		}
		return out
	}
	first := walk(nil)
	if first.reused != 0 || len(first.files) == 0 {
		t.Fatalf("first walk reused %d directories, found %d files", first.reused, len(first.files))
	}
	second := walk(first.next)
	if second.reused != len(first.next) || !reflect.DeepEqual(sizes(second), sizes(first)) {
		t.Fatalf("unchanged tree: reused %d of %d directories, files equal: %v", second.reused, len(first.next), reflect.DeepEqual(sizes(second), sizes(first)))
	}
	if !reflect.DeepEqual(second.problems, first.problems) || second.skipped != first.skipped {
		t.Errorf("unchanged tree: problems %v / skipped %d, want %v / %d", second.problems, second.skipped, first.problems, first.skipped)
	}

	writeFile(t, root, "server/api/format.js", []byte("export const edited = 1;\n"))
	writeFile(t, root, "src/app/orders/added.ts", []byte("export const added = 1;\n"))
	if err := os.Remove(filepath.Join(root, "py", "billing", "tax.py")); err != nil {
		t.Fatal(err)
	}
	third := walk(second.next)
	got := sizes(third)
	if got["server/api/format.js"] != int64(len("export const edited = 1;\n")) {
		t.Errorf("an edit in a reused directory was missed: size %d", got["server/api/format.js"])
	}
	if _, ok := got["src/app/orders/added.ts"]; !ok {
		t.Error("a file added to a directory was missed")
	}
	if _, ok := got["py/billing/tax.py"]; ok {
		t.Error("a removed file is still listed")
	}
	if third.reused == 0 || third.reused >= len(second.next) {
		t.Errorf("reused %d of %d directories, want all but the changed ones", third.reused, len(second.next))
	}

	age(t, root)
	fourth := walk(third.next)
	writeFile(t, root, ".gitignore", []byte("server/\n"))
	fifth := walk(fourth.next)
	if _, ok := sizes(fifth)["server/api/orders.js"]; ok || fifth.reused != 0 {
		t.Errorf("after a .gitignore change: server/ still listed (%v) or listings reused (%d)", ok, fifth.reused)
	}

	// A new .gitignore in a folder changes what its subfolders list.
	age(t, root)
	sixth := walk(fifth.next)
	writeFile(t, root, "src/app/.gitignore", []byte("grid/\n"))
	seventh := walk(sixth.next)
	if _, ok := sizes(seventh)["src/app/orders/grid/orders-grid.component.ts"]; ok {
		t.Error("a file under a folder a new .gitignore excludes is still listed")
	}
}

// age sets every directory's modification time an hour back, past the
// window in which a listing is not trusted.
func age(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadersDuringIncrementalRefresh reads the index while another
// goroutine edits, adds and removes files and refreshes, as serve does
// between packs (run with -race).
func TestReadersDuringIncrementalRefresh(t *testing.T) {
	root := copyWorkspace(t)
	ix, _ := indexWorkspace(t, root)
	done := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		defer close(done)
		for i := range 20 {
			writeFile(t, root, "server/api/format.js", []byte(fmt.Sprintf("export function formatTotal%d(a) { return a; }\n", i)))
			if i%2 == 0 {
				writeFile(t, root, "server/api/extra.js", []byte("import { formatTotal } from './format';\n"))
			} else {
				os.Remove(filepath.Join(root, "server", "api", "extra.js"))
			}
			if _, err := ix.Refresh(context.Background(), nil); err != nil {
				errs <- err
				return
			}
		}
	}()
	for {
		select {
		case <-done:
			select {
			case err := <-errs:
				t.Fatal(err)
			default:
			}
			if ix.derivedViews == 0 {
				t.Error("no view was derived from its predecessor")
			}
			return
		default:
		}
		c := ix.Corpus()
		for _, p := range c.Postings("format") {
			if int(p.Doc) >= len(c.Files) || p.Doc < 0 {
				t.Fatalf("posting of a document the corpus does not have: %d of %d", p.Doc, len(c.Files))
			}
		}
		for _, e := range ix.Neighbors("server/api/format.js") {
			if e.From == "" || e.To == "" {
				t.Fatalf("empty edge %+v", e)
			}
		}
		_ = ix.Symbols("OrdersService")
		_ = len(ix.Edges()) + len(ix.AllSymbols()) + len(ix.Usages(""))
	}
}
