package indexer

import (
	"sort"
	"strings"
)

// view holds lookups derived from the per-file facts. It is rebuilt after a
// Refresh changes anything, on first use, and is immutable afterwards, so
// readers share it without locks.
type view struct {
	files       []string
	symbols     []Symbol
	byName      map[string][]Symbol
	byLowerName map[string][]Symbol
	edges       []Edge
	edgesOf     map[string][]int
	usages      []Usage
	corpus      *Corpus
}

// current returns the view, building it if facts changed since the last one.
func (ix *Index) current() *view {
	ix.mu.RLock()
	v := ix.view
	ix.mu.RUnlock()
	if v != nil {
		return v
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.view == nil {
		ix.view = buildView(ix.files, loadProjectConfig(ix.opts.Root))
	}
	return ix.view
}

// invalidate drops the view; the caller holds ix.mu for writing.
func (ix *Index) invalidate() { ix.view = nil }

func buildView(files map[string]*fileFacts, cfg projectConfig) *view {
	v := &view{
		byName:      map[string][]Symbol{},
		byLowerName: map[string][]Symbol{},
		edgesOf:     map[string][]int{},
	}
	for p := range files {
		v.files = append(v.files, p)
	}
	sort.Strings(v.files)
	for _, p := range v.files {
		f := files[p]
		v.symbols = append(v.symbols, f.Symbols...)
		v.usages = append(v.usages, f.Usages...)
	}
	for _, s := range v.symbols {
		v.byName[s.Name] = append(v.byName[s.Name], s)
		lower := strings.ToLower(s.Name)
		v.byLowerName[lower] = append(v.byLowerName[lower], s)
	}
	v.edges = newResolver(files, v.files, v.symbols, cfg).resolveAll()
	for i, e := range v.edges {
		v.edgesOf[e.From] = append(v.edgesOf[e.From], i)
		if e.To != e.From {
			v.edgesOf[e.To] = append(v.edgesOf[e.To], i)
		}
	}
	v.corpus = buildCorpus(files, v.files)
	return v
}

// Posting is one document's frequency of one term.
type Posting struct {
	Doc int32
	TF  int32
}

// Corpus is the lexical side of the index: per-file term statistics for
// BM25, with files numbered by their position in Files.
type Corpus struct {
	Files    []string
	Lens     []int32 // length in terms
	Sizes    []int64 // length in bytes
	Langs    []string
	AvgLen   float64
	docOf    map[string]int32
	postings map[string][]Posting
}

func buildCorpus(files map[string]*fileFacts, order []string) *Corpus {
	c := &Corpus{
		Files:    order,
		Lens:     make([]int32, len(order)),
		Sizes:    make([]int64, len(order)),
		Langs:    make([]string, len(order)),
		docOf:    make(map[string]int32, len(order)),
		postings: make(map[string][]Posting, 1<<16),
	}
	var total float64
	for i, p := range order {
		f := files[p]
		c.Lens[i] = f.Length
		c.Sizes[i] = f.Size
		c.Langs[i] = f.Lang
		c.docOf[p] = int32(i)
		total += float64(f.Length)
		for t, n := range f.Terms {
			c.postings[t] = append(c.postings[t], Posting{Doc: int32(i), TF: n})
		}
	}
	if len(order) > 0 {
		c.AvgLen = total / float64(len(order))
	}
	return c
}

// Corpus returns the lexical statistics of the current index.
func (ix *Index) Corpus() *Corpus { return ix.current().corpus }

// Postings returns the documents containing term. Shared: do not modify.
func (c *Corpus) Postings(term string) []Posting { return c.postings[term] }

// DocFreq is the number of documents containing term.
func (c *Corpus) DocFreq(term string) int { return len(c.postings[term]) }

// Doc returns the document number of file.
func (c *Corpus) Doc(file string) (int32, bool) {
	d, ok := c.docOf[file]
	return d, ok
}
