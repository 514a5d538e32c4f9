package indexer

import (
	"context"
	"maps"
	"reflect"
	"testing"
)

// storedStamps reads the stamps row by row, as a process without the blob
// does.
func storedStamps(t *testing.T, ix *Index) map[string]*fileFacts {
	t.Helper()
	var files map[string]*fileFacts
	if err := readSnapshot(context.Background(), ix.db, func(q querier) error {
		var err error
		files, _, err = loadStamps(context.Background(), q)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return files
}

// TestStampsBlob: a process that indexed leaves the stamps as one blob, the
// next opens from it with the very stamps the rows hold, and a write by
// another process in between sends the one after back to the rows, which
// hold that write.
func TestStampsBlob(t *testing.T) {
	root := copyWorkspace(t)
	db := openDB(t, t.TempDir())
	first, err := Open(db, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if first.stampsFromBlob {
		t.Fatal("a new database's stamps came from a blob")
	}
	if _, err := first.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}

	second, err := Open(db, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if !second.stampsFromBlob {
		t.Fatal("the stamps the first process left were not read")
	}
	rows := storedStamps(t, second)
	if len(rows) == 0 || !maps.EqualFunc(second.files, rows, func(a, b *fileFacts) bool { return reflect.DeepEqual(a, b) }) {
		t.Fatalf("stamps from the blob differ from the rows: %d files, rows %d", len(second.files), len(rows))
	}

	// Another process writes: the blob is of an older generation now.
	other, err := Open(db, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "src/app/orders/orders.service.ts", []byte("export class OrdersStore {}\n"))
	if _, err := other.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := second.Close(); err != nil { // its stamps are the old ones: it must not leave them
		t.Fatal(err)
	}
	third, err := Open(db, Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer third.Close()
	if third.stampsFromBlob {
		t.Error("stamps of an older generation were read")
	}
	if got, want := third.files["src/app/orders/orders.service.ts"].Hash, storedStamps(t, third)["src/app/orders/orders.service.ts"].Hash; got != want {
		t.Errorf("the changed file's hash %q, want the stored %q", got, want)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDecodeStampsRefusesDamage: a blob cut short or followed by more bytes
// is refused, so the rows are read instead of stamps made up.
func TestDecodeStampsRefusesDamage(t *testing.T) {
	files := map[string]*fileFacts{
		"src/a.ts": {Path: "src/a.ts", Hash: "abc", Size: 10, ModTime: 1700000000000000000, Lang: "typescript", Length: 4},
		"b.html":   {Path: "b.html", Hash: "def", Size: 3, ModTime: -1, Lang: "html", ParseError: "bad", Length: 1},
	}
	blob := encodeStamps(files)
	got, err := decodeStamps(blob)
	if err != nil || !maps.EqualFunc(got, files, func(a, b *fileFacts) bool { return reflect.DeepEqual(a, b) }) {
		t.Fatalf("round trip: %v, %v", got, err)
	}
	for _, tc := range []struct {
		note string
		blob []byte
	}{
		{note: "empty", blob: nil},
		{note: "cut short", blob: blob[:len(blob)-1]},
		{note: "cut in a path", blob: blob[:5]},
		{note: "trailing bytes", blob: append(append([]byte{}, blob...), 0)},
		{note: "a count larger than the blob", blob: []byte{0xff, 0xff, 0x03}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if _, err := decodeStamps(tc.blob); err == nil {
				t.Error("decoded")
			}
		})
	}
}
