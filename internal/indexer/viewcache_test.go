package indexer

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// openCached opens an index of root on db that stores its view in file.
func openCached(t testing.TB, db *sql.DB, root, file string) *Index {
	t.Helper()
	ix, err := Open(db, Options{Root: root, ViewCache: file})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// TestViewCacheMatchesBuiltView checks that a new process reads back the
// view the last one built, equal to one built from the facts, and that a
// change drops it for a view built from the database again.
func TestViewCacheMatchesBuiltView(t *testing.T) {
	root := copyWorkspace(t)
	db := openDB(t, t.TempDir())
	file := filepath.Join(t.TempDir(), "index-view")
	ctx := context.Background()

	first := openCached(t, db, root, file)
	if _, err := first.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	built := first.current()
	first.background.Wait()
	if err := first.ViewCacheErr(); err != nil {
		t.Fatal(err)
	}
	if first.storedViewHits != 0 {
		t.Fatal("a cold index read a stored view")
	}

	second := openCached(t, db, root, file)
	if _, err := second.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	got := second.current()
	if second.storedViewHits != 1 || second.loaded {
		t.Fatalf("stored view hits %d, facts loaded %v: want the stored view and no facts", second.storedViewHits, second.loaded)
	}
	compareViews(t, got, built)
	compareViews(t, got, storedView(t, second))
	for _, f := range built.files { // answered from the view, without facts
		if g, w := second.FileSymbols(f), first.FileSymbols(f); !reflect.DeepEqual(g, w) {
			t.Errorf("FileSymbols(%q) = %v, want %v", f, g, w)
		}
	}

	writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class OrdersService { reload() { return 3; } }\n"))
	derived := second.derivedViews
	if _, err := second.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	changed := second.current()
	if changed == got || !second.loaded || second.derivedViews != derived+1 {
		t.Fatal("a change did not derive the next view from the one read back")
	}
	compareViews(t, changed, storedView(t, second))
	for _, step := range []struct{ file, src string }{
		{"src/app/orders/orders.extra.ts", "import { OrdersService } from './orders.service';\nexport class Extra {}\n"},
		{"server/api/format.js", ""},
	} {
		if step.src == "" {
			if err := os.Remove(filepath.Join(root, step.file)); err != nil {
				t.Fatal(err)
			}
		} else {
			writeFile(t, root, step.file, []byte(step.src))
		}
		if _, err := second.Refresh(ctx, nil); err != nil {
			t.Fatal(err)
		}
		changed = second.current()
		compareViews(t, changed, storedView(t, second))
	}
	if err := second.Close(); err != nil { // stores the view it derived
		t.Fatal(err)
	}

	third := openCached(t, db, root, file)
	if _, err := third.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if compareViews(t, third.current(), changed); third.storedViewHits != 1 {
		t.Fatal("the view stored after the change was not read back")
	}
}

// TestViewReadBackReresolvesUsers: a process that read its view back holds
// no references, yet a change to a name other files use (a component's
// selector and class renamed, then back) re-resolves those users as a
// fresh build would, with the view derived from the one read back.
func TestViewReadBackReresolvesUsers(t *testing.T) {
	root := copyWorkspace(t)
	ctx := context.Background()
	second := readBack(t, root)
	const component, template = "src/app/shared/ui/data-table/data-table.component.ts", "src/app/dashboard/dashboard.component.html"
	original, err := os.ReadFile(filepath.Join(root, component))
	if err != nil {
		t.Fatal(err)
	}
	renamed := strings.NewReplacer("'adp-data-table'", "'adp-grid-table'", "DataTableComponent", "GridTableComponent").Replace(string(original))
	for _, step := range []struct {
		note string
		src  string
		edge bool // whether the template's element still resolves to the component
	}{
		{note: "the selector and the class renamed", src: renamed, edge: false},
		{note: "both back", src: string(original), edge: true},
	} {
		derived := second.derivedViews
		writeFile(t, root, component, []byte(step.src))
		if _, err := second.Refresh(ctx, nil); err != nil {
			t.Fatal(err)
		}
		got := second.current()
		if second.derivedViews != derived+1 {
			t.Fatalf("%s: the view was rebuilt, not derived from the one read back", step.note)
		}
		compareViews(t, got, storedView(t, second))
		linked := slices.ContainsFunc(got.edgesFrom[template], func(e Edge) bool { return e.To == component })
		if linked != step.edge {
			t.Errorf("%s: %s -> %s is %v, want %v", step.note, template, component, linked, step.edge)
		}
		for p, f := range second.files {
			if len(f.Refs) > 0 {
				t.Errorf("%s: %s still holds %d references after the view was derived", step.note, p, len(f.Refs))
			}
		}
	}
}

// TestViewCacheMisses checks that a stored view is used only for the files
// it was built from, and that a damaged one is a miss, reported, and
// replaced by the next build.
func TestViewCacheMisses(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		note    string
		spoil   func(t *testing.T, root, file string, db *sql.DB)
		wantErr bool
	}{
		{note: "another process indexed a change", spoil: func(t *testing.T, root, _ string, db *sql.DB) {
			writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class Changed {}\n"))
			other, err := Open(db, Options{Root: root, CountsFromStore: true})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := other.Refresh(ctx, nil); err != nil {
				t.Fatal(err)
			}
		}},
		{note: "the import aliases changed", spoil: func(t *testing.T, root, _ string, _ *sql.DB) {
			writeFile(t, root, "tsconfig.json", []byte(`{ "compilerOptions": { "baseUrl": ".", "paths": { "@x/*": ["src/*"] } } }`))
		}},
		{note: "truncated", wantErr: true, spoil: func(t *testing.T, _, file string, _ *sql.DB) {
			data := readFile(t, file)
			writeBytes(t, file, data[:len(data)/2])
		}},
		{note: "a flipped byte", wantErr: true, spoil: func(t *testing.T, _, file string, _ *sql.DB) {
			data := readFile(t, file)
			data[len(data)*2/3] ^= 0x40
			writeBytes(t, file, data)
		}},
		{note: "not a stored view", wantErr: true, spoil: func(t *testing.T, _, file string, _ *sql.DB) {
			writeBytes(t, file, []byte("{}"))
		}},
		{note: "a link", wantErr: true, spoil: func(t *testing.T, _, file string, _ *sql.DB) {
			target := file + ".elsewhere"
			if err := os.Rename(file, target); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, file); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			root := copyWorkspace(t)
			db := openDB(t, t.TempDir())
			file := filepath.Join(t.TempDir(), "index-view")
			first := openCached(t, db, root, file)
			if _, err := first.Refresh(ctx, nil); err != nil {
				t.Fatal(err)
			}
			first.current()
			first.background.Wait()
			tc.spoil(t, root, file, db)

			ix := openCached(t, db, root, file)
			got := ix.current() // before any refresh: what the stamps say
			if ix.storedViewHits != 0 {
				t.Fatal("read a stored view that does not hold")
			}
			if err := ix.ViewCacheErr(); (err != nil) != tc.wantErr {
				t.Fatalf("ViewCacheErr() = %v, want an error: %v", err, tc.wantErr)
			}
			compareViews(t, got, storedView(t, ix))
			ix.background.Wait()
			again := openCached(t, db, root, file)
			if again.current(); again.storedViewHits != 1 {
				t.Fatal("the next build did not replace the stored view")
			}
		})
	}
}

// TestViewCacheStoresDerivedViews checks the stored form of a view with a
// corpus overlay (one derived from its predecessor after edits).
func TestViewCacheStoresDerivedViews(t *testing.T) {
	root := copyWorkspace(t)
	ix, _ := indexWorkspace(t, root)
	ix.current()
	writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class OrdersService { brandNewTerm() {} }\n"))
	writeFile(t, root, "src/app/orders/orders.extra.ts", []byte("export const extra = 1;\n"))
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	v := ix.current()
	if len(v.corpus.overlay) == 0 {
		t.Fatal("the derived view has no overlay to store")
	}
	file := filepath.Join(t.TempDir(), "index-view")
	if err := storeView(file, "k", v); err != nil {
		t.Fatal(err)
	}
	got, err := loadView(file, "k")
	if err != nil || got == nil {
		t.Fatalf("loadView: %v, %v", got, err)
	}
	compareViews(t, got, v)
	if other, err := loadView(file, "another key"); other != nil || err != nil {
		t.Fatalf("another key: %v, %v; want a plain miss", other, err)
	}
}

// FuzzDecodeView holds the reader to its promise on any bytes behind a
// valid checksum: an error or a view, never a panic.
func FuzzDecodeView(f *testing.F) {
	ix, _ := indexWorkspace(f, copyWorkspace(f))
	file := filepath.Join(f.TempDir(), "index-view")
	if err := storeView(file, "k", ix.current()); err != nil {
		f.Fatal(err)
	}
	data := readFile(f, file)
	f.Add(data[:len(data)-4])
	f.Add([]byte(viewCacheMagic + "\x01\x01k"))
	f.Fuzz(func(t *testing.T, body []byte) {
		data := binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.Checksum(body, crcTable))
		v, err := decodeView(data, "k")
		if err == nil && v != nil && len(v.corpus.Lens) != len(v.files) {
			t.Fatalf("a view of %d files with %d document lengths", len(v.files), len(v.corpus.Lens))
		}
		if err == nil && v != nil {
			v.lookups() // derived on first use: from any lists decoded, without a fault
		}
	})
}

func readFile(t testing.TB, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeBytes(t testing.TB, file string, data []byte) {
	t.Helper()
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLoadViewLarge reads back the view stored in MCPC_BENCH_VIEW (a
// tree's .ai/tmp/index-view); "lookups" derives its lookups too, as a
// read did before they were derived on first use.
func BenchmarkLoadViewLarge(b *testing.B) {
	file := os.Getenv("MCPC_BENCH_VIEW")
	if file == "" {
		b.Skip("MCPC_BENCH_VIEW not set")
	}
	data := readFile(b, file)
	r := &viewReader{data: data[len(viewCacheMagic):]}
	r.num()
	key := string(r.bytes(r.count(1)))
	for _, lookups := range []bool{false, true} {
		name := "lists"
		if lookups {
			name = "lookups"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				v, err := loadView(file, key)
				if err != nil || v == nil {
					b.Fatal(v, err)
				}
				if lookups {
					v.lookups()
				}
			}
			reportCPU(b, start)
		})
	}
}

// TestViewCacheLookupsOnFirstUse checks that a view read back derives its
// lookups only when one is read, not for ranking's reads of its lists, that
// they answer as the built view's do, and that a change derives the next
// view from a read-back view whose lookups nothing read yet.
func TestViewCacheLookupsOnFirstUse(t *testing.T) {
	root := copyWorkspace(t)
	db := openDB(t, t.TempDir())
	file := filepath.Join(t.TempDir(), "index-view")
	ctx := context.Background()
	first := openCached(t, db, root, file)
	if _, err := first.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	built := first.current()
	first.background.Wait()

	for _, tc := range []struct {
		note string
		read func(t *testing.T, ix *Index)
	}{
		{"Symbols", func(t *testing.T, ix *Index) {
			for _, s := range built.symbols {
				if g, w := ix.Symbols(s.Name), first.Symbols(s.Name); !reflect.DeepEqual(g, w) {
					t.Errorf("Symbols(%q) = %v, want %v", s.Name, g, w)
				}
			}
		}},
		{"Neighbors", func(t *testing.T, ix *Index) {
			for _, f := range built.files {
				if g, w := ix.Neighbors(f), first.Neighbors(f); !reflect.DeepEqual(g, w) {
					t.Errorf("Neighbors(%q) = %v, want %v", f, g, w)
				}
			}
		}},
		{"a change", func(t *testing.T, ix *Index) {
			writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class OrdersService { again() { return 4; } }\n"))
			if _, err := ix.Refresh(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if ix.derivedViews != 1 {
				t.Fatal("the change did not derive the next view from the one read back")
			}
			compareViews(t, ix.current(), storedView(t, ix))
		}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ix := openCached(t, db, root, file)
			if _, err := ix.Refresh(ctx, nil); err != nil {
				t.Fatal(err)
			}
			ix.Files()
			ix.AllSymbols()
			ix.Edges()
			ix.Usages("")
			ix.Corpus()
			v := ix.current()
			if ix.storedViewHits != 1 || !v.unindexed || v.edgesTo != nil {
				t.Fatalf("stored view hits %d, lookups derived %v: want the view read back, its lookups not derived", ix.storedViewHits, v.edgesTo != nil)
			}
			tc.read(t, ix)
			if err := ix.Close(); err != nil { // the changed view is stored for the next
				t.Fatal(err)
			}
		})
	}
}

// TestDecodePostings holds the postings reader to the stored form: deltas
// of documents in [0, docs) and frequencies, one byte or more each, and a
// fault for a delta of 0, a document past the last, or a cut.
func TestDecodePostings(t *testing.T) {
	enc := func(nums ...uint64) []byte {
		var b []byte
		for _, n := range nums {
			b = binary.AppendUvarint(b, n)
		}
		return b
	}
	for _, tc := range []struct {
		note string
		data []byte
		n    int
		want []Posting // nil: a fault
	}{
		{"one byte each", enc(1, 2, 3, 1), 2, []Posting{{Doc: 0, TF: 2}, {Doc: 3, TF: 1}}},
		{"longer numbers", enc(200, 300, 1, 70000), 2, []Posting{{Doc: 199, TF: 300}, {Doc: 200, TF: 70000}}},
		{"the last document", enc(1000, 1), 1, []Posting{{Doc: 999, TF: 1}}},
		{"past the last document", enc(1001, 1), 1, nil},
		{"a repeated document", enc(5, 1, 0, 1), 2, nil},
		{"cut in a frequency", enc(5, 1, 3)[:3], 2, nil},
		{"cut in a number", []byte{0x85}, 1, nil},
	} {
		t.Run(tc.note, func(t *testing.T) {
			r := &viewReader{data: tc.data}
			got := r.postings(nil, tc.n, 1000)
			if tc.want == nil {
				if r.err == nil {
					t.Fatalf("no fault, postings %v", got)
				}
				return
			}
			if r.err != nil || !reflect.DeepEqual(got, tc.want) || len(r.data) != 0 {
				t.Fatalf("postings %v (fault %v, %d bytes left), want %v", got, r.err, len(r.data), tc.want)
			}
		})
	}
}

// BenchmarkSymbolsLarge looks a name up in the view stored in
// MCPC_BENCH_VIEW: an exact name, and one found only case-insensitively
// (both lists scanned).
func BenchmarkSymbolsLarge(b *testing.B) {
	file := os.Getenv("MCPC_BENCH_VIEW")
	if file == "" {
		b.Skip("MCPC_BENCH_VIEW not set")
	}
	data := readFile(b, file)
	r := &viewReader{data: data[len(viewCacheMagic):]}
	r.num()
	v, err := loadView(file, string(r.bytes(r.count(1))))
	if err != nil || v == nil {
		b.Fatal(v, err)
	}
	ix := &Index{view: v}
	name := v.symbols[len(v.symbols)/2].Name
	other := strings.ToLower(name)
	if other == name {
		other = strings.ToUpper(name)
	}
	for _, name := range []string{name, other} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if len(ix.Symbols(name)) == 0 {
					b.Fatal("no definitions")
				}
			}
		})
	}
}

// TestLargeTreeFoldsInManyChanges: a tree of 1,600 files folds 80 changes
// (a checkout's worth, past maxIncremental) into the view a new process
// read back, renamed definitions and their users among them, and the view
// is the one a full build makes.
func TestLargeTreeFoldsInManyChanges(t *testing.T) {
	root := copyWorkspace(t)
	const modules, changed = 1600, 80
	src := func(i int, name string) []byte {
		// Each module names its neighbour's class by symbol (an NgModule's
		// declarations), so a rename has users to re-resolve.
		return fmt.Appendf(nil, "import { NgModule } from '@angular/core';\n@NgModule({ declarations: [%s%d] })\nexport class %s%d {}\n",
			"Mod", (i+1)%modules, name, i)
	}
	for i := range modules {
		writeFile(t, root, fmt.Sprintf("gen/m%04d/mod.module.ts", i), src(i, "Mod"))
	}
	if limit := incrementalLimit(modules); changed <= maxIncremental || changed > limit {
		t.Fatalf("%d changes in %d files: the case needs more than %d and at most %d", changed, modules, maxIncremental, limit)
	}
	ctx := context.Background()
	second := readBack(t, root)
	for i := range changed {
		writeFile(t, root, fmt.Sprintf("gen/m%04d/mod.module.ts", i*7), src(i*7, "Renamed"))
	}
	derived := second.derivedViews
	if _, err := second.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	got := second.current()
	if second.derivedViews != derived+1 {
		t.Fatal("the view was rebuilt, not derived from the one read back")
	}
	compareViews(t, got, storedView(t, second))
}

// readBack indexes root in one process that stores its view and closes,
// and returns a second process's index of it that read that view back.
func readBack(t *testing.T, root string) *Index {
	t.Helper()
	db := openDB(t, t.TempDir())
	file := filepath.Join(t.TempDir(), "index-view")
	ctx := context.Background()
	first := openCached(t, db, root, file)
	if _, err := first.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	first.current()
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second := openCached(t, db, root, file)
	if _, err := second.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if second.current(); second.storedViewHits != 1 || second.loaded {
		t.Fatal("the second process did not read the view back without the facts")
	}
	return second
}
