package indexer

import (
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
// lengths, against the corpus's definition on the test workspace.
func TestBuildCorpusPostings(t *testing.T) {
	ix, _ := indexWorkspace(t, copyWorkspace(t))
	c := ix.Corpus()
	want := referenceCorpus(ix.files, c.Files)
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
