package indexer

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// listingsTree is the test workspace with what a listing records beyond
// names: a nested .gitignore, a link (a problem) and a binary (skipped),
// every directory aged past the racy window.
func listingsTree(t *testing.T) string {
	t.Helper()
	root := copyWorkspace(t)
	writeFile(t, root, "src/app/.gitignore", []byte("grid/\n*.log\n"))
	writeFile(t, root, "src/app/orders/debug.log", []byte("noise\n"))
	writeFile(t, root, "src/assets/logo.png", []byte("\x89PNG"))
	if err := os.Symlink("../server", filepath.Join(root, "src", "linked")); err != nil {
		t.Fatal(err)
	}
	age(t, root)
	return root
}

// TestListingsRoundTrip: listings read back from their blob walk the tree
// exactly as the walk that made them, reading no directory, and the
// .gitignore rules they rebuild still exclude what they excluded.
func TestListingsRoundTrip(t *testing.T) {
	root := listingsTree(t)
	first := &walker{root: root, maxBytes: DefaultMaxFileBytes}
	if err := first.walk(context.Background(), []string{"docs/"}); err != nil {
		t.Fatal(err)
	}
	decoded, err := decodeListings(encodeListings(first.next), rootIgnores([]string{"docs/"}))
	if err != nil {
		t.Fatal(err)
	}
	if len(decoded) != len(first.next) {
		t.Fatalf("%d listings read back, want %d", len(decoded), len(first.next))
	}
	for rel, want := range first.next {
		got := decoded[rel]
		if got == nil {
			t.Fatalf("listing %q not read back", rel)
		}
		if got.mtime != want.mtime || got.ctime != want.ctime || got.listedAt != want.listedAt || got.ignore != want.ignore ||
			!slices.Equal(got.dirs, want.dirs) || !slices.Equal(got.files, want.files) ||
			!reflect.DeepEqual(got.problems, want.problems) || got.skipped != want.skipped {
			t.Errorf("listing %q read back as %+v, want %+v", rel, got, want)
		}
		if len(got.stack) != len(want.stack) || (want.rules == nil) != (got.rules == nil) {
			t.Errorf("listing %q: %d rule sets (own: %v), want %d (own: %v)", rel, len(got.stack), got.rules != nil, len(want.stack), want.rules != nil)
		}
	}
	if decoded["src/app"].stack.ignored("src/app/orders/grid", true) != true {
		t.Error("the rebuilt rules of src/app/.gitignore no longer exclude grid/")
	}

	again := &walker{root: root, maxBytes: DefaultMaxFileBytes, prev: decoded}
	if err := again.walk(context.Background(), []string{"docs/"}); err != nil {
		t.Fatal(err)
	}
	if again.listed != 0 || again.reused != len(first.next) {
		t.Errorf("walk from the blob listed %d and reused %d of %d directories", again.listed, again.reused, len(first.next))
	}
	if !reflect.DeepEqual(again.files, first.files) || !reflect.DeepEqual(again.problems, first.problems) || again.skipped != first.skipped {
		t.Errorf("walk from the blob found %d files, %v, %d skipped; want %d, %v, %d",
			len(again.files), again.problems, again.skipped, len(first.files), first.problems, first.skipped)
	}
}

// TestListingsLeftForTheNextProcess: a process leaves its listings at
// Close and the next one's first refresh starts from them, yet sees every
// edit, addition, removal and .gitignore change made in between; a process
// configured with other excludes does not read them.
func TestListingsLeftForTheNextProcess(t *testing.T) {
	root := listingsTree(t)
	db := openDB(t, t.TempDir())
	refresh := func(opts Options) (*Index, Summary) {
		t.Helper()
		ix, err := Open(db, opts)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := ix.Refresh(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return ix, sum
	}
	closeIndex := func(ix *Index) {
		t.Helper()
		if err := ix.Close(); err != nil {
			t.Fatal(err)
		}
		if err := ix.ViewCacheErr(); err != nil {
			t.Fatal(err)
		}
	}
	first, want := refresh(Options{Root: root})
	closeIndex(first)

	probe, err := Open(db, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	stored := probe.storedListings()
	if len(stored) == 0 || len(stored) != len(first.listings) {
		t.Fatalf("%d listings left, want %d", len(stored), len(first.listings))
	}
	if other := (&Index{db: db, opts: Options{Root: root, Exclude: []string{"docs/"}, MaxFileBytes: DefaultMaxFileBytes}}).storedListings(); other != nil {
		t.Error("listings left under other excludes were read")
	}
	closeIndex(probe)

	second, got := refresh(Options{Root: root})
	if got.Files != want.Files || got.Skipped != want.Skipped || !reflect.DeepEqual(got.Problems, want.Problems) || got.Reparsed != 0 {
		t.Errorf("refresh from left listings: %+v, want %+v", got, want)
	}
	if second.listingsChanged {
		t.Error("a walk that listed nothing marked the listings changed")
	}
	closeIndex(second)

	writeFile(t, root, "src/app/orders/added.ts", []byte("export const added = 1;\n"))
	if err := os.Remove(filepath.Join(root, "py", "billing", "tax.py")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "server/api/format.js", []byte("export const edited = 1;\n"))
	// A file added, then the folder's modification time set back as a
	// tool copying times does: the change time still tells.
	hidden := filepath.Join(root, "server", "api")
	before, err := os.Stat(hidden)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "server/api/hidden.js", []byte("export const hidden = 1;\n"))
	if err := os.Chtimes(hidden, before.ModTime(), before.ModTime()); err != nil {
		t.Fatal(err)
	}
	third, _ := refresh(Options{Root: root})
	if !third.HasFile("server/api/hidden.js") {
		t.Error("a file added under a folder whose modification time was set back was missed")
	}
	if !third.HasFile("src/app/orders/added.ts") || third.HasFile("py/billing/tax.py") {
		t.Errorf("after changes between processes: added file indexed %v, removed file indexed %v", third.HasFile("src/app/orders/added.ts"), third.HasFile("py/billing/tax.py"))
	}
	if f := third.files["server/api/format.js"]; f == nil || f.Size != int64(len("export const edited = 1;\n")) {
		t.Errorf("an edit between processes was missed: %+v", f)
	}
	if !third.listingsChanged {
		t.Error("a walk that listed changed directories left the old listings")
	}
	closeIndex(third)

	// A .gitignore changed between processes changes what is listed below.
	writeFile(t, root, "src/app/.gitignore", []byte("*.log\n"))
	fourth, _ := refresh(Options{Root: root})
	defer closeIndex(fourth)
	if !fourth.HasFile("src/app/orders/grid/orders-grid.component.ts") || fourth.HasFile("src/app/orders/debug.log") {
		t.Errorf("after a .gitignore change between processes: grid/ indexed %v, *.log indexed %v",
			fourth.HasFile("src/app/orders/grid/orders-grid.component.ts"), fourth.HasFile("src/app/orders/debug.log"))
	}
}

// TestDecodeListingsRefusesDamage: a blob cut anywhere, or followed by more
// bytes, is refused, so the walk reads the tree instead of trusting made-up
// listings; so is a directory that comes before its parent.
func TestDecodeListingsRefusesDamage(t *testing.T) {
	root := listingsTree(t)
	w := &walker{root: root, maxBytes: DefaultMaxFileBytes}
	if err := w.walk(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	blob := encodeListings(w.next)
	for n := range len(blob) {
		if _, err := decodeListings(blob[:n], rootIgnores(nil)); err == nil {
			t.Fatalf("a blob cut at %d of %d bytes decoded", n, len(blob))
		}
	}
	if _, err := decodeListings(append(slices.Clip(blob), 0), rootIgnores(nil)); err == nil {
		t.Error("a blob with a trailing byte decoded")
	}
	orphan := encodeListings(map[string]*listing{"": {}, "src/app": {}})
	if _, err := decodeListings(orphan, rootIgnores(nil)); err == nil {
		t.Error("a directory without its parent decoded")
	}
}

// FuzzDecodeListings: no blob makes the decoder panic or return listings
// a directory of which lacks its parent.
func FuzzDecodeListings(f *testing.F) {
	f.Add(encodeListings(map[string]*listing{"": {dirs: []string{"a"}}, "a": {files: []string{"x.ts"}, ignore: stamp{1, 2}, rules: &ignoreSet{text: []byte("*.log\n")}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		listings, err := decodeListings(b, rootIgnores(nil))
		if err != nil {
			return
		}
		for rel := range listings {
			if rel == "" {
				continue
			}
			parent := path.Dir(rel)
			if parent == "." {
				parent = ""
			}
			if listings[parent] == nil {
				t.Fatalf("%q decoded without its parent", rel)
			}
		}
	})
}
