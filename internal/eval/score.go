package eval

import (
	"regexp"
	"sort"
	"strings"
)

// score fills a row's recall figures from the pack in rank order.
func score(res *RowResult, pack []string) {
	res.PackSize = len(pack)
	if len(res.Gold) == 0 {
		return
	}
	gold := map[string]bool{}
	for _, g := range res.Gold {
		gold[g] = true
	}
	recallAt := func(k int) float64 {
		hit := 0
		for i, f := range pack {
			if k > 0 && i >= k {
				break
			}
			if gold[f] {
				hit++
			}
		}
		return float64(hit) / float64(len(gold))
	}
	res.Recall5, res.Recall10, res.Recall20 = recallAt(5), recallAt(10), recallAt(20)
	res.RecallAll = recallAt(0)
	inPack := map[string]bool{}
	for _, f := range pack {
		inPack[f] = true
	}
	for _, g := range res.Gold {
		if !inPack[g] {
			res.Missed = append(res.Missed, g)
		}
	}
}

// Summary is the mean of a group of rows.
type Summary struct {
	Rows          int      `json:"rows"`
	Scored        int      `json:"scored"`
	Recall5       float64  `json:"recall5"`
	Recall10      float64  `json:"recall10"`
	Recall20      float64  `json:"recall20"`
	RecallAll     float64  `json:"recallAll"`
	MeanPackSize  float64  `json:"meanPackSize"`
	MeanSeconds   float64  `json:"meanSeconds"`
	BM25Recall5   float64  `json:"bm25Recall5"`
	BM25Recall10  float64  `json:"bm25Recall10"`
	BM25Recall20  float64  `json:"bm25Recall20"`
	LexemeOverlap *float64 `json:"lexemeOverlap20,omitempty"`
	Errors        int      `json:"errors,omitempty"`
}

func summariseRows(rows []RowResult) Summary {
	var s Summary
	s.Rows = len(rows)
	var packs, secs, over float64
	var overN int
	for _, r := range rows {
		packs += float64(r.PackSize)
		secs += r.Seconds
		if r.Error != "" {
			s.Errors++
		}
		if r.Overlap != nil {
			over += *r.Overlap
			overN++
		}
		if len(r.Gold) == 0 {
			continue
		}
		s.Scored++
		s.Recall5 += r.Recall5
		s.Recall10 += r.Recall10
		s.Recall20 += r.Recall20
		s.RecallAll += r.RecallAll
		s.BM25Recall5 += r.BM25Recall5
		s.BM25Recall10 += r.BM25Recall10
		s.BM25Recall20 += r.BM25Recall20
	}
	if s.Scored > 0 {
		n := float64(s.Scored)
		s.Recall5 /= n
		s.Recall10 /= n
		s.Recall20 /= n
		s.RecallAll /= n
		s.BM25Recall5 /= n
		s.BM25Recall10 /= n
		s.BM25Recall20 /= n
	}
	if s.Rows > 0 {
		s.MeanPackSize = packs / float64(s.Rows)
		s.MeanSeconds = secs / float64(s.Rows)
	}
	if overN > 0 {
		o := over / float64(overN)
		s.LexemeOverlap = &o
	}
	return s
}

// summarise averages the scored rows (rows with a gold set), overall and
// per repository.
func summarise(rep *Report) {
	rep.Summary = summariseRows(rep.Results)
	byRepo := map[string][]RowResult{}
	for _, r := range rep.Results {
		byRepo[r.repo] = append(byRepo[r.repo], r)
	}
	rep.PerRepo = map[string]*Summary{}
	for name, rows := range byRepo {
		s := summariseRows(rows)
		rep.PerRepo[name] = &s
	}
}

// overlap is |A∩B|/|A∪B| over the first k files of two packs.
func overlap(a, b []string, k int) float64 {
	a, b = a[:min(k, len(a))], b[:min(k, len(b))]
	in := map[string]bool{}
	for _, f := range a {
		in[f] = true
	}
	union := len(in)
	inter := 0
	for _, f := range b {
		if in[f] {
			inter++
			delete(in, f)
		} else {
			union++
		}
	}
	if union == 0 {
		return 1
	}
	return float64(inter) / float64(union)
}

var (
	identRE = regexp.MustCompile("`([^`]+)`|\\b([A-Za-z]+[a-z][A-Z][A-Za-z0-9]*|[a-z0-9]+(?:_[a-z0-9]+)+|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\\b")
	wordsRE = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_-]{2,}`)
)

// LexemesFromIdentifiers derives lexemes the way a careful agent does:
// only what looks like code in the prompt (backquoted text, camelCase,
// snake_case), falling back to the longest words.
func LexemesFromIdentifiers(prompt string) []string {
	var out []string
	for _, m := range identRE.FindAllStringSubmatch(prompt, -1) {
		if m[1] != "" {
			out = append(out, m[1])
		} else {
			out = append(out, m[2])
		}
	}
	if len(out) == 0 {
		words := wordsRE.FindAllString(prompt, -1)
		sort.SliceStable(words, func(i, j int) bool { return len(words[i]) > len(words[j]) })
		out = words[:min(3, len(words))]
	}
	return out
}

// LexemesFromWords derives lexemes the way a hasty agent does: every word
// of three letters or more, lower-cased.
func LexemesFromWords(prompt string) []string {
	var out []string
	for _, w := range wordsRE.FindAllString(prompt, -1) {
		out = append(out, strings.ToLower(w))
	}
	return out
}
