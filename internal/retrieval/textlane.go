package retrieval

import (
	"math"
	"sort"
)

// The text lane is a plain Okapi BM25 over each source file's content with
// its path's parts counted as content, queried with the prompt's words.
//
// Why it exists: the fused lanes are tuned to reward files that match many
// kinds of evidence (names, symbols, graph neighbours, folders). On
// repositories whose commit subjects simply name what the changed file
// says (a Java class's Javadoc, a Python module's docstring, a Go package's
// comments), that fusion pushes plain lexical hits below files that match
// the prompt in several weaker ways, and a textbook BM25 found more of the
// changed files than the fused ranking did. Combining the two orders by
// reciprocal rank (see fuseByRank) keeps what the fused ranking finds and
// brings back what a plain lexical reading of the prompt would find, so a
// pack is never much worse than the simplest reasonable ranker.
//
// It differs from the lexical lane on purpose: no coordination factor, no
// compound terms, no lexeme weighting, and path terms counted as text, so
// it errs the way BM25 errs rather than the way the fused lanes do.
func (d *derived) textLane(terms []queryTerm, keep func(doc int32) bool) []docScore {
	c := d.corpus
	n := len(c.Files)
	pathLen := func(doc int32) int { return len(d.docPathTerms(doc)) }
	var total float64
	for i := range c.Files {
		total += float64(c.Lens[i]) + float64(pathLen(int32(i)))
	}
	avg := math.Max(total/math.Max(float64(n), 1), 1)
	scores := map[int32]float64{}
	for _, qt := range terms {
		if qt.compound {
			continue
		}
		tf := map[int32]float64{}
		for _, p := range c.Postings(qt.term) {
			tf[p.Doc] += float64(p.TF)
		}
		for _, doc := range d.pathTerms[qt.term] {
			for _, t := range d.docPathTerms(doc) {
				if t == qt.term {
					tf[doc]++
				}
			}
		}
		if len(tf) == 0 {
			continue
		}
		w := idf(n, len(tf))
		for doc, f := range tf {
			if !keep(doc) {
				continue
			}
			l := float64(c.Lens[doc]) + float64(pathLen(doc))
			scores[doc] += w * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*l/avg))
		}
	}
	out := make([]docScore, 0, len(scores))
	for doc, s := range scores {
		out = append(out, docScore{doc: doc, total: s})
	}
	sortScores(out)
	return out
}

// docPathTerms is the tokenised path of doc, cached with the corpus.
func (d *derived) docPathTerms(doc int32) []string {
	return d.pathTok[doc]
}

// rrfK is reciprocal rank fusion's constant (Cormack et al. 2009 publish
// 60). A smaller constant lets the head of each order count for more than
// its tail: at 60 a file ranked 1st in one order and absent from the other
// scores like the 60th-ranked file of both.
const rrfK = 20

// textWeight is the text lane's share of the fusion next to the fused
// ranking's 1. At an equal share the text lane's guesses displaced the
// fused ranking's best files where BM25 is weak (outline, healthchecks);
// at half, a file only the text lane holds needs its first places to
// enter the top 20, and a file both hold moves up. 20/1, 60/1, 60/0.7 and
// 20/0.5 were measured (docs/retrieval-eval.md); the same two constants
// serve every repository.
const textWeight = 0.5

// fuseByRank merges the fused ranking with the text lane by reciprocal
// rank: each order contributes 1/(rrfK+rank). A file both put near the top
// leads; a file only one of them found keeps a place by its rank there.
// Scores are then the fused total scaled so the order is what RRF says
// while the Score field stays comparable in magnitude.
//
// Files in pinned (what the prompt points at outright, see explicit) lead
// in their fused order: rank fusion is for weighing two rankers' guesses,
// not for overruling a quoted string or a named identifier.
func fuseByRank(fused, text []docScore, pinned map[int32]bool) []docScore {
	rrf := map[int32]float64{}
	at := map[int32]int{} // doc -> index in out
	out := make([]docScore, 0, len(fused)+len(text))
	for i, s := range fused {
		rrf[s.doc] += 1 / (rrfK + float64(i+1))
		at[s.doc] = len(out)
		out = append(out, s)
	}
	for i, s := range text {
		rrf[s.doc] += textWeight / (rrfK + float64(i+1))
		if j, ok := at[s.doc]; ok {
			if i < textLaneMark {
				out[j].lanes = append(append([]string(nil), out[j].lanes...), "text")
			}
			continue
		}
		at[s.doc] = len(out)
		out = append(out, docScore{doc: s.doc, lanes: []string{"text"}})
	}
	for i := range out {
		out[i].total = rrf[out[i].doc] * rrfK
	}
	first := map[int32]int{} // pinned doc -> its fused rank
	for i, s := range fused {
		if pinned[s.doc] {
			first[s.doc] = i
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, iok := first[out[i].doc]
		pj, jok := first[out[j].doc]
		if iok || jok {
			if iok && jok {
				return pi < pj
			}
			return iok
		}
		if out[i].total != out[j].total {
			return out[i].total > out[j].total
		}
		return out[i].doc < out[j].doc
	})
	return out
}

// textLaneMark: a file the text lane ranks this high is reported with the
// "text" lane among its reasons.
const textLaneMark = 20
