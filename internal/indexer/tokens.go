package indexer

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"
)

// Identifier-aware tokenisation shared by indexing and querying, so that a
// prompt word meets the same term a source identifier produced.
//
// A run such as "PasteHandler", "parse_document_slug" or "adp-data-table"
// yields its whole lower-cased form (so exact identifiers score high) and its
// stemmed parts ("past", "handler"), so prose words find code.

// Tokenize splits text into index terms: whole identifiers and their stemmed
// parts, in order of appearance, duplicates kept.
func Tokenize(text string) []string {
	var out []string
	var tk tokenizer
	forEachRun([]byte(text), func(run []byte) {
		tk.terms(run, func(t []byte) { out = append(out, string(t)) })
	})
	return out
}

// PathTerms tokenises a repository-relative path: every directory and file
// name with its parts, the extension dropped.
func PathTerms(path string) []string {
	if i := strings.LastIndexByte(path, '.'); i > strings.LastIndexByte(path, '/') {
		path = path[:i]
	}
	return Tokenize(path)
}

// termCounter counts the terms of the files one indexing worker reads. Its
// vocabulary numbers every distinct term once for the whole refresh, so an
// occurrence costs one lookup and no allocation, and the files' term maps
// share their keys. It also remembers the terms of every distinct run it
// split: identifiers repeat across a tree far more than they vary, so most
// runs cost one lookup instead of a lower-casing, a split, stemming and a
// lookup per term.
type termCounter struct {
	tk    tokenizer
	ids   map[string]int32 // term -> number
	terms []string         // number -> term
	// prefixes holds each term's first 8 bytes, big-endian, so that
	// sorting a file's terms compares integers and only ties their strings.
	prefixes []uint64
	counts   []int32         // number -> count in the current file
	touched  []int32         // numbers counted in the current file
	runs     map[string]span // run -> its term numbers in runTerms
	// shortRuns holds the runs of at most 8 bytes, packed into an integer
	// (shortKey): most runs of a source are that short (this, const,
	// return, value), and an integer key hashes and compares in a few
	// instructions where a string key costs a hash and a memory compare.
	shortRuns map[uint64]span
	// runTerms holds the term numbers of the remembered runs, back to back.
	runTerms []int32
	maxRuns  int
	// order is the current file's terms with their sort prefixes, sorted
	// here rather than through the counter's tables (see count).
	order []termOrder
}

// termOrder is a term number and its sort prefix.
type termOrder struct {
	prefix uint64
	id     int32
}

// shortKey packs a run of 1 to 8 bytes into an integer, little-endian; the
// bytes of a run are never 0, so the padding tells the lengths apart.
func shortKey(run []byte) uint64 {
	var k uint64
	for i, c := range run {
		k |= uint64(c) << (8 * i)
	}
	return k
}

// maxRuns bounds the remembered runs of one counter (about 100 bytes
// each, so at most about 25 MiB per worker; a 4,800-file application has
// about 90,000): a tree with more distinct identifiers splits the rest each
// time.
const maxRuns = 1 << 18

func newTermCounter() *termCounter {
	return &termCounter{ids: make(map[string]int32, 1<<14), runs: make(map[string]span, 1<<14), shortRuns: make(map[uint64]span, 1<<14), maxRuns: maxRuns}
}

// count returns the term frequencies of a source file and its length in
// terms.
func (tc *termCounter) count(src []byte) (termBlob, int32) {
	var n int32
	forEachRun(src, func(run []byte) {
		var sp span
		var known bool
		if len(run) <= 8 {
			sp, known = tc.shortRuns[shortKey(run)]
		} else {
			sp, known = tc.runs[string(run)]
		}
		kept := known
		if !known {
			sp, kept = tc.split(run)
		}
		for _, id := range tc.runTerms[sp.off : sp.off+sp.n] {
			if tc.counts[id] == 0 {
				tc.touched = append(tc.touched, id)
			}
			tc.counts[id]++
		}
		n += int32(sp.n)
		if !kept {
			tc.runTerms = tc.runTerms[:sp.off]
		}
	})
	// The prefixes are copied next to their numbers first: sorting through
	// tc.prefixes read it at random, a cache miss a comparison once the
	// vocabulary outgrew the cache.
	order := tc.order[:0]
	size := 0
	for _, id := range tc.touched {
		order = append(order, termOrder{prefix: tc.prefixes[id], id: id})
		size += len(tc.terms[id]) + 4 // uvarint length and count
	}
	slices.SortFunc(order, func(a, b termOrder) int {
		if a.prefix != b.prefix {
			return cmp.Compare(a.prefix, b.prefix)
		}
		return strings.Compare(tc.terms[a.id], tc.terms[b.id])
	})
	blob := make(termBlob, 0, size)
	for _, t := range order {
		blob = blob.append(tc.terms[t.id], tc.counts[t.id])
		tc.counts[t.id] = 0
	}
	tc.order = order[:0]
	tc.touched = tc.touched[:0]
	return blob, n
}

// split numbers the terms of a run not seen before and remembers them
// while there is room; past maxRuns the caller drops them after use.
func (tc *termCounter) split(run []byte) (span, bool) {
	sp := span{off: uint32(len(tc.runTerms))}
	tc.tk.terms(run, func(t []byte) {
		id, ok := tc.ids[string(t)]
		if !ok {
			id = int32(len(tc.terms))
			term := string(t)
			tc.ids[term] = id
			tc.terms = append(tc.terms, term)
			tc.prefixes = append(tc.prefixes, sortPrefix(term))
			tc.counts = append(tc.counts, 0)
		}
		tc.runTerms = append(tc.runTerms, id)
		sp.n++
	})
	if len(tc.runs)+len(tc.shortRuns) >= tc.maxRuns {
		return sp, false
	}
	if len(run) <= 8 {
		tc.shortRuns[shortKey(run)] = sp
	} else {
		tc.runs[string(run)] = sp
	}
	return sp, true
}

// sortPrefix packs the first 8 bytes of s into an integer that orders as
// they do (a shorter s pads with zeros, which sorts first as it should).
func sortPrefix(s string) uint64 {
	var b [8]byte
	copy(b[:], s)
	return binary.BigEndian.Uint64(b[:])
}

func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes marks the bytes of identifier runs; a table because the test
// runs for every byte of every file.
var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		b := byte(c)
		t[c] = b == '_' || b == '$' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
	}
	return t
}()

// forEachRun calls fn for every identifier-like run, joining kebab-case
// pieces ("adp-data-table") into one run. Runs longer than 64 bytes are
// skipped: they are hashes, base64 or minified code, never names.
func forEachRun(src []byte, fn func(run []byte)) {
	i := 0
	for i < len(src) {
		if !isWordByte(src[i]) {
			i++
			continue
		}
		start := i
		for i < len(src) {
			if isWordByte(src[i]) {
				i++
				continue
			}
			if src[i] == '-' && i+1 < len(src) && isWordByte(src[i+1]) && i > start {
				i++
				continue
			}
			break
		}
		if i-start <= 64 {
			fn(src[start:i])
		}
	}
}

// tokenizer splits identifier runs into terms without allocating: terms
// are handed out as slices of its own buffer, valid until the next call.
type tokenizer struct {
	lower [64]byte
	parts [64][2]int // start and end of each part in lower
}

// terms emits the whole run (lower-cased) and its stemmed parts. A run that
// is a single part is a plain word: its stem is its only term, so prose and
// code meet.
func (tk *tokenizer) terms(run []byte, emit func([]byte)) {
	if len(run) < 2 || len(run) > len(tk.lower) {
		return
	}
	lower := tk.lower[:len(run)]
	for i, c := range run {
		if isUpper(c) {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	parts := tk.split(run)
	if len(parts) == 1 {
		if p := lower[parts[0][0]:parts[0][1]]; len(p) >= 2 && !isNumber(p) {
			emit(stem(p))
		}
		return
	}
	if !isNumber(lower) {
		emit(lower)
	}
	for _, b := range parts {
		p := lower[b[0]:b[1]]
		if len(p) < 2 || isNumber(p) {
			continue
		}
		emit(stem(p))
	}
}

func isNumber(s []byte) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// split splits on '_', '-', '$', lower-to-upper transitions, acronym ends
// ("HTMLParser" -> html, parser) and letter/digit changes.
func (tk *tokenizer) split(run []byte) [][2]int {
	parts := tk.parts[:0]
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, [2]int{start, end})
		}
		start = -1
	}
	for i := 0; i < len(run); i++ {
		c := run[i]
		if c == '_' || c == '-' || c == '$' {
			flush(i)
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		p := run[i-1]
		switch {
		case isUpper(c) && isLower(p):
			flush(i)
			start = i
		case isUpper(c) && isUpper(p) && i+1 < len(run) && isLower(run[i+1]):
			flush(i)
			start = i
		case isDigit(c) != isDigit(p) && p != '_' && p != '-' && p != '$':
			flush(i)
			start = i
		}
	}
	flush(len(run))
	return parts
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// stem is a deliberately light suffix stripper: enough to meet "pasting",
// "pasted" and "paste" at one term without a full Porter stemmer's surprises
// on code words. It works in place: the result is a prefix of w, whose
// bytes it may change.
func stem(w []byte) []byte {
	n := len(w)
	switch {
	case n > 4 && hasSuffix(w, "ies"):
		w[n-3] = 'y'
		return w[:n-2]
	case n > 4 && hasSuffix(w, "sses"):
		return w[:n-2]
	case n > 5 && hasSuffix(w, "ing"):
		return undouble(w[:n-3])
	case n > 4 && hasSuffix(w, "ed"):
		return undouble(w[:n-2])
	case n > 3 && w[n-1] == 's' && !hasSuffix(w, "ss") && !hasSuffix(w, "us") && !hasSuffix(w, "is"):
		return stem(w[:n-1])
	case n > 4 && w[n-1] == 'e':
		return w[:n-1]
	}
	return w
}

func hasSuffix(w []byte, suffix string) bool {
	return len(w) >= len(suffix) && string(w[len(w)-len(suffix):]) == suffix
}

// undouble trims a doubled final consonant ("dropp" -> "drop") and a final
// "e" so "pasting" and "paste" agree.
func undouble(w []byte) []byte {
	n := len(w)
	if n >= 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	if n > 4 && w[n-1] == 'e' {
		return w[:n-1]
	}
	return w
}

// validUTF8 reports whether src is UTF-8 text (a BOM is fine).
func validUTF8(src []byte) bool { return utf8.Valid(src) }
