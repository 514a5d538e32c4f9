package indexer

import (
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
	forEachRun([]byte(text), func(run []byte) {
		emitTerms(run, func(t string) { out = append(out, t) })
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

// countTerms returns the term frequencies of a source file and its length in
// terms.
func countTerms(src []byte) (map[string]int32, int32) {
	counts := make(map[string]int32, 256)
	var n int32
	forEachRun(src, func(run []byte) {
		emitTerms(run, func(t string) {
			counts[t]++
			n++
		})
	})
	return counts, n
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

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

// emitTerms emits the whole run and its stemmed parts.
func emitTerms(run []byte, emit func(string)) {
	if len(run) < 2 {
		return
	}
	var parts [16]string
	ps := splitIdentifier(run, parts[:0])
	if len(ps) == 1 {
		// A plain word: its stem is the only term, so prose and code meet.
		if len(ps[0]) >= 2 && !isNumber(ps[0]) {
			emit(stem(ps[0]))
		}
		return
	}
	if whole := strings.ToLower(string(run)); !isNumber(whole) {
		emit(whole)
	}
	for _, p := range ps {
		if len(p) < 2 || isNumber(p) {
			continue
		}
		emit(stem(p))
	}
}

func isNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// splitIdentifier splits on '_', '-', '$', lower-to-upper transitions,
// acronym ends ("HTMLParser" -> html, parser) and letter/digit changes.
func splitIdentifier(run []byte, parts []string) []string {
	start := -1
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, strings.ToLower(string(run[start:end])))
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
// on code words.
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "sses"):
		return w[:n-2]
	case n > 5 && strings.HasSuffix(w, "ing"):
		return undouble(w[:n-3])
	case n > 4 && strings.HasSuffix(w, "ed"):
		return undouble(w[:n-2])
	case n > 3 && w[n-1] == 's' && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return stem(w[:n-1])
	case n > 4 && w[n-1] == 'e':
		return w[:n-1]
	}
	return w
}

// undouble trims a doubled final consonant ("dropp" -> "drop") and a final
// "e" so "pasting" and "paste" agree.
func undouble(w string) string {
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
