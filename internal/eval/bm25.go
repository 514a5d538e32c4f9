package eval

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// BM25 is a REFERENCE, not a product signal: a plain Okapi BM25 (k1 1.2,
// b 0.75) over the identifier parts of each non-test source file's content
// plus its path's parts, queried with the prompt's words. It is computed in
// the same run as mcpc's pack so that every figure is read next to what a
// textbook ranker gets on the same trees; mcpc's ranking never calls it.
type BM25 struct {
	cache map[string]bm25Doc // by blob id: a blob is tokenised once per run
}

type bm25Doc struct {
	tf  map[string]int
	len int
}

// NewBM25 returns a reference ranker with an empty blob cache.
func NewBM25() *BM25 { return &BM25{cache: map[string]bm25Doc{}} }

// maxBM25File bounds what is read: larger files are generated or data.
const maxBM25File = 512 << 10

// Rank returns up to k paths of tree (materialised under dir) ranked for
// prompt.
func (b *BM25) Rank(dir string, tree Tree, prompt string, k int) []string {
	type cand struct {
		path string
		doc  bm25Doc
	}
	var cands []cand
	var total int
	df := map[string]int{}
	for _, e := range tree.Entries {
		if !IsSourcePath(e.Path) || IsTestPath(e.Path) {
			continue
		}
		doc, ok := b.cache[e.Blob]
		if !ok {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Path)))
			if err != nil || len(data) > maxBM25File {
				continue
			}
			doc = bm25Doc{tf: map[string]int{}}
			for _, t := range bm25Terms(string(data)) {
				doc.tf[t]++
				doc.len++
			}
			b.cache[e.Blob] = doc
		}
		// Path parts are counted with the content (not cached: two paths
		// may share a blob).
		d := bm25Doc{tf: doc.tf, len: doc.len}
		if pt := bm25Terms(e.Path); len(pt) > 0 {
			d.tf = make(map[string]int, len(doc.tf)+len(pt))
			for t, n := range doc.tf {
				d.tf[t] = n
			}
			for _, t := range pt {
				d.tf[t]++
				d.len++
			}
		}
		cands = append(cands, cand{e.Path, d})
		total += d.len
	}
	if len(cands) == 0 {
		return nil
	}
	query := map[string]bool{}
	for _, t := range bm25Terms(prompt) {
		if !bm25Stop[t] {
			query[t] = true
		}
	}
	for _, c := range cands {
		for t := range query {
			if c.doc.tf[t] > 0 {
				df[t]++
			}
		}
	}
	avg := float64(total) / float64(len(cands))
	n := float64(len(cands))
	type scored struct {
		path  string
		score float64
	}
	var out []scored
	for _, c := range cands {
		var s float64
		for t := range query {
			f := float64(c.doc.tf[t])
			if f == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t])+0.5)/(float64(df[t])+0.5))
			s += idf * f * 2.2 / (f + 1.2*(0.25+0.75*float64(c.doc.len)/avg))
		}
		if s > 0 {
			out = append(out, scored{c.path, s})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].path < out[j].path
	})
	var paths []string
	for i := 0; i < len(out) && i < k; i++ {
		paths = append(paths, out[i].path)
	}
	return paths
}

// bm25Terms splits text into lower-cased identifier parts: "parseDocumentSlug"
// and "parse_document_slug" both give parse, document, slug.
func bm25Terms(text string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 1 {
			out = append(out, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	var prev rune
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(cur) > 0 && unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// bm25Stop are English function words a prompt carries and code rarely
// means.
var bm25Stop = map[string]bool{
	"the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"on": true, "for": true, "with": true, "when": true, "is": true, "are": true, "be": true, "it": true,
	"by": true, "as": true, "at": true, "from": true, "not": true, "no": true, "this": true, "that": true,
	"fix": true, "feat": true, "chore": true, "refactor": true, "perf": true,
}
