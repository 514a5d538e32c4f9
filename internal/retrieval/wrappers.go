package retrieval

import (
	"path"
	"strings"
	"unicode"

	"github.com/mcpc/mcpc/internal/indexer"
)

// Wrappers: a file named as a file beside it with words put in front
// (themed-search.component.ts beside search.component.ts, which it
// imports) wraps or specialises that file: an Angular theme's wrapper
// that picks the themed or the plain component, a server- or
// browser-side variant of a service, a parser for one kind of field
// beside the field parser. Its name carries every word of the file it
// wraps, so it matches a task about that file by the same words, and the
// graph walk reaches it from everything that uses the wrapped file; yet
// the task that does not say the added word ("themed", "date") is about
// the wrapped file, which holds the behaviour. Such a file ranks at
// wrapperPrior of its score unless the prompt says a word its name adds.
//
// Over dspace-angular's 40 rows (2026-12-04) such files held 77 of the
// first 40 places and one gold file (submission-config.interface.ts, an
// interface extending config.interface.ts, no wrapper since the wrapped
// file must define behaviour; the themed wrappers: none of 56); on the
// other six development sets 18 places, none gold. Measured on all ten
// sets: dspace-angular R@10 0.627 -> 0.652, R@20 0.685 -> 0.719, pack
// recall 0.750 -> 0.756 ("new funnel icon in search scope": the template
// 13th -> 10th, behind themed-search-form and themed-search before);
// excalidraw's gold files rose a place in five rows (its HelpDialog and
// ImageExportDialog import Dialog) without crossing a cutoff; no set lost
// at any cutoff; lexeme overlap dspace-angular 0.850 -> 0.862, outline
// 0.847 -> 0.845, excalidraw 0.866 -> 0.864. At 0.7 dspace-angular's R@20
// gained 0.694 only; before the wrapped file had to define behaviour, 0.5
// cost its R@5 a file (the interface above, 5th -> 7th). Judged by the
// name before the first dot alone, field-parser.ts was the wrapper of the
// parser.utils.ts it imports (R@10 lost a row): the names must agree
// after it (".component.ts"), the same kind of file.
var wrapperPrior = 0.5

// wrapperFiles marks, per document, the files that import a file of the
// same folder and kind whose name is theirs without a head of one or more
// words, with the head's words (lower-cased), to be held against the
// prompt's. Built once per corpus and kept with the derived lookups: one
// pass over the edges, 2-3 CPU-ms for dspace-angular's 20,000 (about what
// the graph lane's adjacency takes).
func (d *derived) wrapperFiles(ix *indexer.Index) map[int32][]string {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if d.wraps != nil {
		return d.wraps
	}
	out := map[int32][]string{}
	for _, e := range ix.Edges() {
		if e.Kind != "import" {
			continue
		}
		fdir, fbase := path.Split(e.From)
		gdir, gbase := path.Split(e.To)
		// Same folder, same kind: the names agree after their first dot
		// (".component.ts"), so a parser importing parser.utils.ts or a
		// config importing config.interface.ts is no wrapper of it.
		if fdir != gdir || nameKind(fbase) != nameKind(gbase) {
			continue
		}
		fs, gs := nameStem(fbase), nameStem(gbase)
		// Most pairs differ at the end of the name: tell them apart
		// without splitting either into words.
		if len(fs) <= len(gs) || !strings.EqualFold(fs[len(fs)-len(gs):], gs) {
			continue
		}
		head, ok := nameHead(fs, gs)
		if !ok {
			continue
		}
		from, ok1 := d.corpus.Doc(e.From)
		to, ok2 := d.corpus.Doc(e.To)
		// What is wrapped does something: an interface extending an
		// interface (submission-config.interface.ts of config.interface.ts)
		// is a declaration of its own.
		if !ok1 || !ok2 || !d.behaves[to] {
			continue
		}
		if _, seen := out[from]; seen {
			continue
		}
		out[from] = head
	}
	d.wraps = out
	return out
}

// nameStem is a file name up to its first dot: "themed-search.component.ts"
// -> "themed-search".
func nameStem(base string) string {
	if i := strings.IndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return base
}

// nameKind is a file name from its first dot: "search.component.ts" ->
// ".component.ts".
func nameKind(base string) string {
	if i := strings.IndexByte(base, '.'); i > 0 {
		return base[i:]
	}
	return ""
}

// nameHead is the words f's name has before g's whole name, when f's name
// ends in g's: ("themed-search-sidebar", "search-sidebar") -> [themed];
// ("ImportJSONTask", "ImportTask") -> none, the word is inside.
func nameHead(f, g string) ([]string, bool) {
	fw, gw := nameWords(f), nameWords(g)
	if len(gw) == 0 || len(fw) <= len(gw) {
		return nil, false
	}
	tail := fw[len(fw)-len(gw):]
	for i := range gw {
		if tail[i] != gw[i] {
			return nil, false
		}
	}
	return fw[:len(fw)-len(gw)], true
}

// nameWords splits a name at separators and lower-to-upper case changes,
// lower-cased: "search-sidebar" and "SearchSidebar" -> [search sidebar].
func nameWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// saidTerms is every term of the prompt and lexemes, stopwords kept:
// "themed" is Porter's "them", a stopword, and still says the wrapper's
// word.
func saidTerms(q Query) map[string]bool {
	out := map[string]bool{}
	for _, t := range indexer.Tokenize(q.Prompt + " " + strings.Join(q.Lexemes, " ")) {
		out[t] = true
	}
	return out
}

// wrapperOf reports whether doc wraps a file beside it by a head of words
// none of which the prompt says.
func wrapperOf(wraps map[int32][]string, doc int32, said map[string]bool) bool {
	head, ok := wraps[doc]
	if !ok {
		return false
	}
	for _, w := range head {
		for _, t := range indexer.Tokenize(w) {
			if said[t] {
				return false
			}
		}
	}
	return true
}
