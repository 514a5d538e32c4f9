package indexer

import (
	"maps"
	"sort"
)

// Posting is one document's frequency of one term.
type Posting struct {
	Doc int32
	TF  int32
}

// Corpus is the lexical side of the index: per-file term statistics for
// BM25, with files numbered by their position in Files.
//
// A corpus is immutable. After a few files changed content the next corpus
// shares the previous one's postings and keeps the lists of the terms that
// changed in a small overlay, so one edited file costs its own terms, not
// the tree's; when the overlay grows past a fraction of the postings it is
// folded into a fresh base.
type Corpus struct {
	Files    []string
	Lens     []int32 // length in terms
	Sizes    []int64 // length in bytes
	Langs    []string
	AvgLen   float64
	docOf    map[string]int32
	terms    map[string]uint32 // term -> its span
	spans    []span            // where each term's postings are in arena
	names    []string          // span -> its term: walked faster than terms
	arena    []Posting
	overlay  map[string][]Posting // changed terms; wins over postings
	totalLen int64
}

// span locates one term's postings in the arena: one allocation for all
// of them, without the spare capacity of a slice per term.
type span struct{ off, n uint32 }

// maxOverlayFraction is the overlay size, as a fraction of the base's terms, at
// which the next update rebuilds the base instead.
const maxOverlayFraction = 8

func buildCorpus(files map[string]*fileFacts, order []string) *Corpus {
	c := &Corpus{
		Files: order,
		Lens:  make([]int32, len(order)),
		Sizes: make([]int64, len(order)),
		Langs: make([]string, len(order)),
		docOf: make(map[string]int32, len(order)),
		terms: make(map[string]uint32, 1<<16),
	}
	// Count each term's documents, lay the lists out, then fill them in
	// document order. Looking a term up by its bytes allocates nothing;
	// only a new term's key does. The first pass keeps each occurrence's
	// term number, so the second looks nothing up: hashing every term twice
	// was half of the corpus's build (at 47,870 files, buildCorpus went
	// from 860 to 440 CPU-ms). The numbers go in fixed-size chunks: one
	// growing slice of millions of them would be copied at each doubling
	// and peak at twice its size.
	//
	// The first pass also keeps each occurrence's count, so that a file's
	// term blob is let go as soon as it is read: a view built from the
	// facts (a new process on a freshly indexed tree) held every blob
	// until the second pass, 56 MB at 47,870 files beside the term
	// numbers, at the moment its heap peaked. buildView's caller drops
	// the files' blobs anyway once the view stands (dropTerms).
	var ids, counts idChunks
	distinct := make([]int32, len(order)) // each file's number of terms
	for i, p := range order {
		f := files[p]
		c.Lens[i], c.Sizes[i], c.Langs[i] = f.Length, f.Size, f.Lang
		c.docOf[p] = int32(i)
		c.totalLen += int64(f.Length)
		f.Terms.each(func(t []byte, n int32) {
			id, ok := c.terms[string(t)]
			if !ok {
				id = uint32(len(c.spans))
				name := string(t)
				c.terms[name] = id
				c.spans = append(c.spans, span{})
				c.names = append(c.names, name)
			}
			c.spans[id].n++
			ids.add(id)
			counts.add(uint32(n))
			distinct[i]++
		})
		f.Terms = nil
	}
	off := uint32(0)
	for i := range c.spans {
		c.spans[i].off, off = off, off+c.spans[i].n
		c.spans[i].n = 0
	}
	c.arena = make([]Posting, ids.len())
	k := 0
	for i, n := range distinct {
		for range n {
			sp := &c.spans[ids.at(k)]
			c.arena[sp.off+sp.n] = Posting{Doc: int32(i), TF: int32(counts.at(k))}
			sp.n++
			k++
		}
	}
	c.setAvgLen()
	return c
}

// idChunks is an append-only list of term numbers in chunks of idChunk.
type idChunks [][]uint32

const idChunk = 1 << 16

func (ch *idChunks) add(id uint32) {
	if n := len(*ch); n == 0 || len((*ch)[n-1]) == idChunk {
		*ch = append(*ch, make([]uint32, 0, idChunk))
	}
	last := &(*ch)[len(*ch)-1]
	*last = append(*last, id)
}

func (ch idChunks) len() int {
	if len(ch) == 0 {
		return 0
	}
	return (len(ch)-1)*idChunk + len(ch[len(ch)-1])
}

func (ch idChunks) at(k int) uint32 { return ch[k/idChunk][k%idChunk] }

func (c *Corpus) setAvgLen() {
	if len(c.Files) > 0 {
		c.AvgLen = float64(c.totalLen) / float64(len(c.Files))
	}
}

// update returns the corpus after the changes of d; order is the new file
// list. Documents keep their numbers unless files were added or removed:
// then the surviving postings are renumbered in one pass over the arena.
func (c *Corpus) update(d *delta, files map[string]*fileFacts, order []string) *Corpus {
	// The files the view was built from no longer hold their terms (see
	// dropTerms): what a changed or removed file had is read back from c.
	old := c.docTerms(func(want func(string)) {
		for p := range d.changed {
			want(p)
		}
		for p := range d.removed {
			want(p)
		}
	})
	if len(c.overlay) > len(c.terms)/maxOverlayFraction {
		c = c.compact()
	}
	n := &Corpus{
		Files:    order,
		Lens:     append([]int32(nil), c.Lens...),
		Sizes:    append([]int64(nil), c.Sizes...),
		Langs:    append([]string(nil), c.Langs...),
		docOf:    c.docOf,
		terms:    c.terms,
		spans:    c.spans,
		names:    c.names,
		arena:    c.arena,
		overlay:  maps.Clone(c.overlay),
		totalLen: c.totalLen,
	}
	if n.overlay == nil {
		n.overlay = map[string][]Posting{}
	}
	renumbered := len(d.added)+len(d.removed) > 0
	if renumbered {
		n.renumber(c, files, d.removed, old) // lengths and sizes from files
	}
	for p, was := range d.changed {
		doc, ok := n.docOf[p]
		if !ok {
			continue
		}
		f := files[p]
		if !renumbered {
			n.Lens[doc], n.Sizes[doc], n.Langs[doc] = f.Length, f.Size, f.Lang
			n.totalLen += int64(f.Length) - int64(was.Length)
		}
		n.replaceTerms(doc, old[p], f.Terms)
	}
	for p := range d.added {
		n.replaceTerms(n.docOf[p], nil, files[p].Terms)
	}
	n.setAvgLen()
	return n
}

// renumber gives the documents their numbers in the new file list: the
// postings of removed files are dropped (each under one of that file's
// terms), the others renumbered, which keeps every list in document order.
func (n *Corpus) renumber(c *Corpus, files, removed map[string]*fileFacts, old map[string]termBlob) {
	n.docOf = make(map[string]int32, len(n.Files))
	n.Lens, n.Sizes, n.Langs = make([]int32, len(n.Files)), make([]int64, len(n.Files)), make([]string, len(n.Files))
	n.totalLen = 0
	for i, p := range n.Files {
		f := files[p]
		n.docOf[p] = int32(i)
		n.Lens[i], n.Sizes[i], n.Langs[i] = f.Length, f.Size, f.Lang
		n.totalLen += int64(f.Length)
	}
	renum := make([]int32, len(c.Files))
	for i, p := range c.Files {
		if doc, ok := n.docOf[p]; ok {
			renum[i] = doc
		} else {
			renum[i] = -1
		}
	}
	n.arena = make([]Posting, len(c.arena))
	for i, p := range c.arena {
		if p.Doc >= 0 { // else gone earlier, and shadowed by the overlay
			p.Doc = renum[p.Doc]
		}
		n.arena[i] = p
	}
	for t, list := range n.overlay {
		out := make([]Posting, 0, len(list))
		for _, p := range list {
			if doc := renum[p.Doc]; doc >= 0 {
				out = append(out, Posting{Doc: doc, TF: p.TF})
			}
		}
		n.overlay[t] = out
	}
	for p := range removed {
		old[p].each(func(t []byte, _ int32) {
			list := n.Postings(string(t))
			out := make([]Posting, 0, len(list))
			for _, p := range list {
				if p.Doc >= 0 {
					out = append(out, p)
				}
			}
			n.overlay[string(t)] = out
		})
	}
}

// replaceTerms sets doc's postings from its old terms to its new ones;
// both blobs are in term order and are walked side by side.
func (n *Corpus) replaceTerms(doc int32, oldTerms, newTerms termBlob) {
	was, now := oldTerms.list(), newTerms.list()
	for len(was) > 0 || len(now) > 0 {
		switch {
		case len(now) == 0 || (len(was) > 0 && string(was[0].term) < string(now[0].term)):
			t := string(was[0].term)
			n.overlay[t] = withPosting(n.Postings(t), doc, 0)
			was = was[1:]
		case len(was) == 0 || string(now[0].term) < string(was[0].term):
			t := string(now[0].term)
			n.overlay[t] = withPosting(n.Postings(t), doc, now[0].n)
			now = now[1:]
		default:
			if was[0].n != now[0].n {
				t := string(now[0].term)
				n.overlay[t] = withPosting(n.Postings(t), doc, now[0].n)
			}
			was, now = was[1:], now[1:]
		}
	}
}

// withPosting returns a copy of a doc-ordered posting list with doc's
// frequency set to tf (removed when 0).
func withPosting(list []Posting, doc, tf int32) []Posting {
	i := sort.Search(len(list), func(i int) bool { return list[i].Doc >= doc })
	out := make([]Posting, 0, len(list)+1)
	out = append(out, list[:i]...)
	if tf > 0 {
		out = append(out, Posting{Doc: doc, TF: tf})
	}
	if i < len(list) && list[i].Doc == doc {
		i++
	}
	return append(out, list[i:]...)
}

// Corpus returns the lexical statistics of the current index.
func (ix *Index) Corpus() *Corpus { return ix.current().corpus }

// Postings returns the documents containing term. Shared: do not modify.
func (c *Corpus) Postings(term string) []Posting {
	if p, ok := c.overlay[term]; ok {
		return p
	}
	id, ok := c.terms[term]
	if !ok {
		return nil
	}
	sp := c.spans[id]
	return c.arena[sp.off : sp.off+sp.n : sp.off+sp.n]
}

// DocFreq is the number of documents containing term.
func (c *Corpus) DocFreq(term string) int { return len(c.Postings(term)) }

// Doc returns the document number of file.
func (c *Corpus) Doc(file string) (int32, bool) {
	d, ok := c.docOf[file]
	return d, ok
}
