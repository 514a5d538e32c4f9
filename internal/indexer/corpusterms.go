package indexer

import (
	"cmp"
	"slices"
)

// A built view's files do not keep their term blobs: the corpus holds the
// same counts as postings, and the blobs were the largest part of a
// serving process's heap (at 47,550 files about as large as the corpus
// itself). What a file's blob said is read back from the corpus when a
// change needs it: the old terms of a changed or removed file (update),
// or every unchanged file's terms for a full rebuild (restoreTerms).

// docTerms returns, for each path paths names that is a document of c, its
// term counts as c holds them.
func (c *Corpus) docTerms(paths func(want func(string))) map[string]termBlob {
	want := make([]bool, len(c.Files))
	var docs []int32
	paths(func(p string) {
		if doc, ok := c.docOf[p]; ok && !want[doc] {
			want[doc] = true
			docs = append(docs, doc)
		}
	})
	if len(docs) == 0 {
		return nil
	}
	if len(docs) > fewDocs {
		docs = nil // visit every posting instead
	}
	out := map[string]termBlob{}
	for doc, b := range c.invert(want, docs) {
		out[c.Files[doc]] = b
	}
	return out
}

// fewDocs is how many documents docTerms looks up in each posting list by
// binary search; past it one pass over every posting is cheaper. A refresh
// after one edit reads one document back, and visiting all the postings
// for it cost 8 CPU-ms at 4,755 files (ten times that at ten times the
// files), the search a small part of it.
const fewDocs = 8

// invert walks every term's postings once and collects, for the documents
// want marks, their (term, count) pairs encoded as blobs in term order, the
// order termCounter gives them. When docs lists the wanted documents
// (a few), each list is searched for them instead of walked.
func (c *Corpus) invert(want []bool, docs []int32) map[int32]termBlob {
	type entry struct {
		term string
		n    int32
	}
	per := map[int32][]entry{}
	visit := func(term string, list []Posting) {
		if docs != nil {
			for _, doc := range docs {
				i, found := slices.BinarySearchFunc(list, doc, func(p Posting, d int32) int { return cmp.Compare(p.Doc, d) })
				if found {
					per[doc] = append(per[doc], entry{term, list[i].TF})
				}
			}
			return
		}
		for _, p := range list {
			if p.Doc >= 0 && want[p.Doc] {
				per[p.Doc] = append(per[p.Doc], entry{term, p.TF})
			}
		}
	}
	for id, term := range c.names {
		if _, shadowed := c.overlay[term]; shadowed {
			continue
		}
		sp := c.spans[id]
		visit(term, c.arena[sp.off:sp.off+sp.n])
	}
	for term, list := range c.overlay {
		visit(term, list)
	}
	out := make(map[int32]termBlob, len(per))
	for doc, es := range per {
		slices.SortFunc(es, func(a, b entry) int { return cmp.Compare(a.term, b.term) })
		var b termBlob
		for _, e := range es {
			b = b.append(e.term, e.n)
		}
		out[doc] = b
	}
	return out
}

// compact folds the overlay into a fresh base: every term's current list,
// laid out in one arena, without the lists of terms no document holds any
// more. Document numbers do not change.
func (c *Corpus) compact() *Corpus {
	n := *c
	n.terms = make(map[string]uint32, len(c.terms))
	n.spans = make([]span, 0, len(c.terms))
	n.names = make([]string, 0, len(c.terms))
	n.overlay = nil
	total := 0
	live := func(term string) []Posting {
		list := c.Postings(term)
		if len(list) == 0 {
			return nil
		}
		return list
	}
	for term := range c.terms {
		total += len(live(term))
	}
	for term, list := range c.overlay {
		if _, ok := c.terms[term]; !ok {
			total += len(list)
		}
	}
	n.arena = make([]Posting, 0, total)
	add := func(term string, list []Posting) {
		if len(list) == 0 {
			return
		}
		n.terms[term] = uint32(len(n.spans))
		n.spans = append(n.spans, span{off: uint32(len(n.arena)), n: uint32(len(list))})
		n.names = append(n.names, term)
		n.arena = append(n.arena, list...)
	}
	for term := range c.terms {
		add(term, live(term))
	}
	for term, list := range c.overlay {
		if _, ok := c.terms[term]; !ok {
			add(term, list)
		}
	}
	return &n
}

// dropTerms lets the files at paths, from which the view was just built,
// go of their term blobs; the caller holds ix.mu for writing. Nothing reads
// a file's blob outside ix.mu once it is in ix.files (a refresh writes new
// facts before they get there), so the facts are changed in place.
func (ix *Index) dropTerms(paths []string) {
	if !ix.loaded {
		return // a view of stamps only: there is nothing to drop
	}
	for _, p := range paths {
		if f := ix.files[p]; f != nil {
			f.Terms = nil
		}
	}
	ix.termsDropped = true
}

// restoreTerms gives back, before a full rebuild, the term blobs of the
// files that prev's corpus holds and that did not change since (pending
// names those that did: their facts hold their new terms).
func (ix *Index) restoreTerms(prev *Corpus, pending *delta) {
	if !ix.termsDropped || prev == nil {
		return
	}
	back := prev.docTerms(func(want func(string)) {
		for p := range ix.files {
			if pending.changed[p] == nil && !pending.added[p] {
				want(p)
			}
		}
	})
	for p, b := range back {
		if f := ix.files[p]; f != nil {
			f.Terms = b
		}
	}
}
