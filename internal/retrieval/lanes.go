package retrieval

import (
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/mcpc/mcpc/internal/indexer"
)

// BM25 parameters, the usual defaults.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// derived holds per-corpus lookups the lanes need, built once per index
// state and reused while it does not change.
type derived struct {
	corpus    *indexer.Corpus
	pathTerms map[string][]int32 // path term -> documents
	baseTerms [][]string         // per document: terms of the file name itself, distinct (shared)
	symTerms  map[string][]int32 // name term -> symbols
	symbols   []symInfo
	anchors   []string
	adj       [][]int32           // per document, built on first use by the graph lane
	byStem    map[string][]int32  // built on first use by the companion lane
	baseStems map[string][]int32  // built on first use by the qualifier lane
	byExt     map[string][]int32  // built on first use by the qualifier lane
	byHead    map[string][]int32  // built on first use by the analogue lane (nameEnds)
	byTail    map[string][]int32  // built on first use by the analogue lane (nameEnds)
	nameTerms map[string][]string // symbol name -> its unique terms (a memo)
	docKinds  *docKinds           // built on first use (dockinds.go)
	// declares marks the script files that only declare: types and
	// re-exports, no behaviour (declarations.go).
	declares []bool
	// wraps holds the files that wrap a file beside them, with the words
	// their names add (wrappers.go); built on first use.
	wraps map[int32][]string
	// behaves marks the files that define behaviour (a function, class
	// or method; symbolMark), not declarations only.
	behaves []bool
}

type symInfo struct {
	doc   int32
	parts int // number of distinct terms in the symbol's name
}

var (
	cacheMu sync.Mutex
	cache   *derived
)

func derive(ix *indexer.Index) *derived {
	c := ix.Corpus()
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if cache != nil && cache.corpus == c {
		return cache
	}
	d := &derived{
		corpus:    c,
		symTerms:  map[string][]int32{},
		nameTerms: map[string][]string{},
	}
	// After files changed content only (the usual refresh before a pack),
	// what derives from paths alone is the same: keep it, and the terms of
	// symbol names met before.
	if prev := cache; prev != nil && slices.Equal(prev.corpus.Files, c.Files) {
		d.pathTerms, d.baseTerms, d.anchors, d.byStem, d.baseStems, d.byExt = prev.pathTerms, prev.baseTerms, prev.anchors, prev.byStem, prev.baseStems, prev.byExt
		d.byHead, d.byTail = prev.byHead, prev.byTail
		d.nameTerms = prev.nameTerms
		if sameKinds(prev, d) {
			d.docKinds = prev.docKinds
		}
	} else {
		d.derivePaths()
	}
	// Symbols come in path order: one document lookup per file, not per
	// symbol (134,000 symbols in 47,550 files).
	var lastFile string
	var lastDoc int32
	lastOK := false
	// Names repeat far more than terms: each distinct name's terms are
	// looked up once, as slots of lists, and a symbol appends its id to
	// its name's slots without hashing a term.
	type nameSlots struct {
		slots []int32
		parts int
	}
	byName := map[string]nameSlots{}
	var lists termLists
	marks := make([]uint8, len(c.Files)) // declarations.go
	for _, s := range ix.AllSymbols() {
		if s.File != lastFile || lastFile == "" {
			lastFile = s.File
			lastDoc, lastOK = c.Doc(s.File)
		}
		doc, ok := lastDoc, lastOK
		if ok {
			marks[doc] |= symbolMark(s.Kind)
		}
		if !ok || s.Kind == "route" || s.Kind == "grid_column" {
			continue
		}
		ns, ok := byName[s.Name]
		if !ok {
			terms, known := d.nameTerms[s.Name]
			if !known {
				terms = uniqueTerms(s.Name)
				d.nameTerms[s.Name] = terms
			}
			ns = nameSlots{slots: lists.slots(terms), parts: len(terms)}
			byName[s.Name] = ns
		}
		id := int32(len(d.symbols))
		d.symbols = append(d.symbols, symInfo{doc: doc, parts: ns.parts})
		for _, slot := range ns.slots {
			lists.add(slot, id)
		}
	}
	lists.into(d.symTerms)
	d.declares = declarationFiles(c.Files, marks)
	d.behaves = make([]bool, len(marks))
	for i, m := range marks {
		d.behaves[i] = m&markBehaviour != 0
	}
	cache = d
	return d
}

// derivePaths fills the lookups that depend only on the file paths.
//
// A path's terms are those of its directories followed by those of its
// file name (a term never spans a '/'), and a tree repeats both far more
// than it varies: ten copies of one application hold 47,870 paths in a few
// thousand directories and about 4,800 file names. So each distinct
// directory and file name is tokenised once; at 47,870 files that took
// derivePaths from 290 to 80 CPU-ms.
func (d *derived) derivePaths() {
	c := d.corpus
	d.pathTerms = map[string][]int32{}
	d.baseTerms = make([][]string, len(c.Files))
	d.anchors = make([]string, len(c.Files))
	type dirInfo struct {
		terms  []string // distinct, in order
		slots  []int32  // terms' lists in lists, once a file of it is met
		anchor string
	}
	type stemInfo struct {
		terms []string
		slots []int32
	}
	dirs := map[string]*dirInfo{}
	stems := map[string]*stemInfo{}
	// Each term's documents are a list in lists, found by a directory's or
	// a stem's slots: a file appends to its terms' lists without hashing
	// them (47,550 files, some 380,000 appends).
	var lists termLists
	// A directory's terms are its parent's followed by its own name's new
	// ones, and the names repeat far more than the directories (every
	// application of a monorepo has its own src/app/core/...): each name
	// is tokenised once, each directory extends its parent's list.
	names := map[string][]string{}
	var dirTerms func(dir string) []string // dir ends in '/'; "" is the root
	dirTerms = func(dir string) []string {
		if dir == "" {
			return nil
		}
		if di := dirs[dir]; di != nil {
			return di.terms
		}
		slash := strings.LastIndexByte(dir[:len(dir)-1], '/')
		parent, name := dir[:slash+1], dir[slash+1:len(dir)-1]
		own, ok := names[name]
		if !ok {
			own = uniqueTerms(name)
			names[name] = own
		}
		up := dirTerms(parent)
		terms := up[:len(up):len(up)]
		for _, t := range own {
			if !slices.Contains(up, t) {
				terms = append(terms, t)
			}
		}
		if len(terms) == len(up) {
			terms = up
		}
		dirs[dir] = &dirInfo{terms: terms, anchor: anchorUnset}
		return terms
	}
	for i, f := range c.Files {
		slash := strings.LastIndexByte(f, '/')
		dir, base := f[:slash+1], f[slash+1:]
		di := dirs[dir]
		if di == nil {
			dirTerms(dir)
			di = dirs[dir]
			if di == nil { // the root
				di = &dirInfo{anchor: anchorUnset}
				dirs[dir] = di
			}
		}
		if di.anchor == anchorUnset {
			di.anchor, di.slots = indexer.Anchor(f), lists.slots(di.terms)
		}
		stem := base
		if dot := strings.LastIndexByte(base, '.'); dot >= 0 {
			stem = base[:dot]
		}
		st := stems[stem]
		if st == nil {
			terms := uniqueTerms(stem)
			st = &stemInfo{terms: terms, slots: lists.slots(terms)}
			stems[stem] = st
		}
		for _, slot := range di.slots {
			lists.add(slot, int32(i))
		}
		for k, t := range st.terms {
			if !slices.Contains(di.terms, t) {
				lists.add(st.slots[k], int32(i))
			}
		}
		d.baseTerms[i] = st.terms
		d.anchors[i] = di.anchor
	}
	lists.into(d.pathTerms)
}

// termLists gives each distinct term a list of ids, found by its slot: a
// caller that meets the same terms again and again (a name's, a
// directory's) looks them up once and appends without hashing them.
type termLists struct {
	slotOf map[string]int32
	terms  []string // slot -> its term
	lists  [][]int32
}

// slots returns the slots of terms, making those of new terms.
func (tl *termLists) slots(terms []string) []int32 {
	if tl.slotOf == nil {
		tl.slotOf = map[string]int32{}
	}
	out := make([]int32, len(terms))
	for i, t := range terms {
		slot, ok := tl.slotOf[t]
		if !ok {
			slot = int32(len(tl.lists))
			tl.slotOf[t] = slot
			tl.terms = append(tl.terms, t)
			tl.lists = append(tl.lists, nil)
		}
		out[i] = slot
	}
	return out
}

func (tl *termLists) add(slot, id int32) { tl.lists[slot] = append(tl.lists[slot], id) }

// into sets each term's list in m.
func (tl *termLists) into(m map[string][]int32) {
	for slot, ids := range tl.lists {
		m[tl.terms[slot]] = ids
	}
}

// anchorUnset marks a directory whose anchor no file of it computed yet
// (derivePaths meets parents before their files).
const anchorUnset = "\x00"

// uniqueTerms is s's terms, each once, in order. A name has a handful of
// terms: a linear search beats a set.
func uniqueTerms(s string) []string {
	all := indexer.Tokenize(s)
	out := all[:0]
	for _, t := range all {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return slices.Clip(out)
}

// idf is BM25's inverse document frequency, floored at a small positive
// value so very common terms never subtract.
func idf(n, df int) float64 {
	v := math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
	return math.Max(v, 0.01)
}

// lexical scores documents by BM25 over their content terms, with the
// terms of their path counted as content too.
//
// A file's path is the shortest description of it anyone wrote: in
// hc/integrations/email/views.py the views never say "email", the folder
// does; in a Django, Angular or Java tree the words a task uses for an
// area are folder and file names more often than text. The path lane
// scores the path on its own; counting it here lets a file that holds the
// task's other words *and* sits in the folder it names beat one that only
// repeats the words (plain BM25 over content plus path parts, the eval's
// reference, beat this lane on three of seven sets without it). The term's
// rarity is still measured over contents: every file under a folder
// carries its name, and counting those paths as documents made a folder's
// own name look common exactly where it is the word that matters
// (measured: outline R@10 0.702 -> 0.685 that way, 0.710 this way).
func (d *derived) lexical(terms []queryTerm) map[int32]float64 {
	c := d.corpus
	n := len(c.Files)
	scores := map[int32]float64{}
	matched := map[int32]float64{} // idf mass of the query terms a document holds
	var mass float64
	for _, qt := range terms {
		ps := c.Postings(qt.term)
		df := len(ps)
		ps = d.withPathPostings(qt.term, ps)
		if len(ps) == 0 {
			continue
		}
		if df == 0 {
			df = len(ps) // a word only paths hold: rare as they make it
		}
		w := idf(n, df) * qt.weight
		mass += w
		for _, p := range ps {
			tf := float64(p.TF)
			norm := bm25K1 * (1 - bm25B + bm25B*float64(c.Lens[p.Doc])/math.Max(c.AvgLen, 1))
			scores[p.Doc] += w * tf * (bm25K1 + 1) / (tf + norm)
			matched[p.Doc] += w
		}
	}
	// Coordination: a file holding most of the query's rare words beats
	// one that repeats a single word many times.
	for doc, s := range scores {
		scores[doc] = s * math.Pow(matched[doc]/mass, coverageExponent)
	}
	return scores
}

// withPathPostings returns term's content postings with one more
// occurrence for each file whose path holds the term.
func (d *derived) withPathPostings(term string, ps []indexer.Posting) []indexer.Posting {
	docs := d.pathTerms[term]
	if len(docs) == 0 {
		return ps
	}
	tf := make(map[int32]int32, len(ps)+len(docs))
	for _, p := range ps {
		tf[p.Doc] = p.TF
	}
	for _, doc := range docs {
		tf[doc]++
	}
	out := make([]indexer.Posting, 0, len(tf))
	for doc, n := range tf {
		out = append(out, indexer.Posting{Doc: doc, TF: n})
	}
	return out
}

// coverageExponent sets how strongly lexical scores favour files that hold
// more of the query's terms.
const coverageExponent = 1.0

// path scores documents whose path holds query terms; a term in the file
// name counts twice, as names are chosen to say what a file is.
func (d *derived) path(terms []queryTerm) map[int32]float64 {
	n := len(d.corpus.Files)
	scores := map[int32]float64{}
	for _, qt := range terms {
		docs := d.pathTerms[qt.term]
		if len(docs) == 0 {
			continue
		}
		w := idf(n, len(docs)) * qt.weight
		for _, doc := range docs {
			if slices.Contains(d.baseTerms[doc], qt.term) {
				scores[doc] += 2 * w
			} else {
				scores[doc] += w
			}
		}
	}
	return scores
}

// symbol scores documents by their best-matching definition: the idf mass
// of query terms in the symbol's name, scaled by how much of the name the
// query covers, so "PasteHandler" beats "handlePasteOfManyThings".
func (d *derived) symbol(terms []queryTerm) map[int32]float64 {
	n := len(d.corpus.Files)
	acc := map[int32]float64{}
	hits := map[int32]int{}
	for _, qt := range terms {
		ids := d.symTerms[qt.term]
		if len(ids) == 0 {
			continue
		}
		w := idf(n, len(d.corpus.Postings(qt.term))+1) * qt.weight
		for _, id := range ids {
			acc[id] += w
			hits[id]++
		}
	}
	scores := map[int32]float64{}
	for id, v := range acc {
		sym := d.symbols[id]
		coverage := math.Min(1, float64(hits[id])/float64(max(sym.parts, 1)))
		s := v * coverage * coverage
		if s > scores[sym.doc] {
			scores[sym.doc] = s
		}
	}
	return scores
}
