package indexer

import (
	"context"
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
