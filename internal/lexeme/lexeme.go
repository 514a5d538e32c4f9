// Package lexeme replaces whole lexemes in text: an identifier, a tag or
// attribute name such as adp-alert, never part of a longer one. A match
// must not touch a word character ([A-Za-z0-9_$]) or a hyphen on either
// side, so "alert" is not found in "adp-alert" nor "adp-alert" in
// "adp-alert-item". The scan is one pass from left to right and never
// looks at replaced text again, so it ends even when the replacement
// contains the lexeme.
package lexeme

import "strings"

// Replace returns text with every whole occurrence of lexeme replaced, and
// how many there were. An empty lexeme matches nothing.
func Replace(text, lexeme, replacement string) (string, int) {
	if lexeme == "" {
		return text, 0
	}
	var b strings.Builder
	n, last := 0, 0
	for i := 0; i <= len(text)-len(lexeme); {
		j := strings.Index(text[i:], lexeme)
		if j < 0 {
			break
		}
		at := i + j
		end := at + len(lexeme)
		if bounded(text, at, end, lexeme) {
			if n == 0 {
				b.Grow(len(text))
			}
			b.WriteString(text[last:at])
			b.WriteString(replacement)
			last, i = end, end
			n++
			continue
		}
		i = at + 1
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[last:])
	return b.String(), n
}

// Count is how many whole occurrences Replace would replace.
func Count(text, lexeme string) int {
	_, n := Replace(text, lexeme, "")
	return n
}

// bounded reports whether text[at:end] stands alone. An edge of the lexeme
// that is itself no word character (".foo", "foo(") needs no boundary there.
func bounded(text string, at, end int, lexeme string) bool {
	if at > 0 && isWord(lexeme[0]) && isWord(text[at-1]) {
		return false
	}
	if end < len(text) && isWord(lexeme[len(lexeme)-1]) && isWord(text[end]) {
		return false
	}
	return true
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '-' || c >= 0x80
}
