package graph

import (
	"reflect"
	"testing"
)

// FuzzDecodeMemo: a memo file is read back from disk, where anything may
// have been written: any bytes decode to a memo or an error, never a panic
// or an allocation larger than the file, and what encodeMemo wrote decodes
// to the memo it was given.
func FuzzDecodeMemo(f *testing.F) {
	memo := map[string]fileMemo{
		"src/app/a.ts": {fp: 7, source: "file:src/app/a.ts", hash: "h1", ends: []groupEnd{{key: "file:src/app/b.ts", kind: endFile, present: true}}},
		"src/app/b.ts": {fp: 9, source: "file:src/app/b.ts", hash: "h2"},
	}
	good := encodeMemo(memo, "key")
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(memoMagic + "key\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := decodeMemo(data, "key")
		if err != nil {
			return
		}
		if again := encodeMemo(got, "key"); !reflect.DeepEqual(mustDecode(t, again), got) {
			t.Fatal("a decoded memo does not survive encoding again")
		}
	})
	if got := mustDecode(f, good); !reflect.DeepEqual(got, memo) {
		f.Fatalf("decode(encode(memo)) = %v, want %v", got, memo)
	}
}

func mustDecode(t testing.TB, data []byte) map[string]fileMemo {
	t.Helper()
	m, err := decodeMemo(data, "key")
	if err != nil {
		t.Fatal(err)
	}
	return m
}
