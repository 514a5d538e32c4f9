package indexer

import (
	"context"
	"maps"
	"os"
	"slices"
	"testing"
)

// referenceCorpus is buildCorpus as it was before the first pass kept the
// term numbers: each term looked up again in the second.
func referenceCorpus(files map[string]*fileFacts, order []string) map[string][]Posting {
	out := map[string][]Posting{}
	for i, p := range order {
		files[p].Terms.each(func(t []byte, n int32) {
			out[string(t)] = append(out[string(t)], Posting{Doc: int32(i), TF: n})
		})
	}
	return out
}

// TestBuildCorpusPostings checks every term's postings, and the files'
// lengths, against the corpus's definition on the test workspace. The
// reference reads the terms the database stores: a built view's files no
// longer keep theirs (dropTerms).
func TestBuildCorpusPostings(t *testing.T) {
	ix, _ := indexWorkspace(t, copyWorkspace(t))
	c := ix.Corpus()
	stored := map[string]*fileFacts{}
	err := readSnapshot(context.Background(), ix.db, func(q querier) error {
		files, _, err := loadStamps(context.Background(), q)
		if err != nil {
			return err
		}
		stored = files
		return loadFacts(context.Background(), q, files, true)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := referenceCorpus(stored, c.Files)
	if len(want) == 0 {
		t.Fatal("the stored files hold no terms")
	}
	if len(c.terms) != len(want) {
		t.Fatalf("%d terms, want %d", len(c.terms), len(want))
	}
	for term, postings := range want {
		if got := c.Postings(term); !slices.Equal(got, postings) {
			t.Errorf("%q: postings %v, want %v", term, got, postings)
		}
	}
	for i, p := range c.Files {
		if f := ix.files[p]; c.Lens[i] != f.Length || c.Sizes[i] != f.Size || c.Langs[i] != f.Lang {
			t.Errorf("%s: length %d size %d lang %q, want %d %d %q", p, c.Lens[i], c.Sizes[i], c.Langs[i], f.Length, f.Size, f.Lang)
		}
	}
}

// BenchmarkBuildCorpusLarge builds the corpus of the real tree named by
// MCPC_BENCH_TREE from its stored term blobs, as a view built from the
// facts does (a new process on a freshly indexed tree); the blobs' read is
// not timed. Its B/op and the heap it peaks at are what the first pass's
// letting go of each blob saves.
func BenchmarkBuildCorpusLarge(b *testing.B) {
	root := os.Getenv("MCPC_BENCH_TREE")
	if root == "" {
		b.Skip("MCPC_BENCH_TREE not set")
	}
	ix, err := Open(openDB(b, b.TempDir()), Options{Root: root, CountsFromStore: true})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	order := slices.Sorted(maps.Keys(ix.files))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		files := make(map[string]*fileFacts, len(ix.files))
		for p, f := range ix.files {
			files[p] = f.stamp()
		}
		if err := readSnapshot(context.Background(), ix.db, func(q querier) error {
			return loadFacts(context.Background(), q, files, true)
		}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if c := buildCorpus(files, order); len(c.Files) != len(order) {
			b.Fatalf("%d files, want %d", len(c.Files), len(order))
		}
	}
}
