package indexer

import "strings"

// wildmatch is git's glob matcher (wildmatch.c, without case folding),
// ported so a .gitignore means here exactly what it means to git: '*'
// and '?' stop at '/' when pathname is set, "**" crosses directories only
// between slashes, "[...]" takes ranges, "!" or "^" negation and the
// POSIX classes, and a backslash makes the next byte literal. It matches
// bytes, as git does. Ignore rules reach it only when none of the literal
// fast paths in ignore.go applies, so it runs on few patterns.
func wildmatch(pattern, text string, pathname bool) bool {
	return dowild(pattern, text, pathname) == wmMatch
}

// dowild's results. The two aborts stop the callers' star loops early:
// once the text is too short for the rest of the pattern no longer star
// position can help, and a single star cannot reach past a slash.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// byteAt is the byte at i, or 0 past the end: git's strings end in NUL.
func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// isGlobSpecial is git's is_glob_special: a byte that is not a literal in
// a pattern.
func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

func dowild(pattern, text string, pathname bool) int {
	p, t := 0, 0
	for ; p < len(pattern); p, t = p+1, t+1 {
		pc := pattern[p]
		if t == len(text) && pc != '*' {
			return wmAbortAll
		}
		tc := byteAt(text, t)
		switch pc {
		case '\\':
			// Literal match with the next byte; a trailing backslash
			// matches nothing.
			p++
			if tc != byteAt(pattern, p) {
				return wmNoMatch
			}
		default:
			if tc != pc {
				return wmNoMatch
			}
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			if p++; byteAt(pattern, p) == '*' {
				prev := p - 2 // before the first star; -1 at the start
				for p++; byteAt(pattern, p) == '*'; p++ {
				}
				switch {
				case !pathname:
					matchSlash = true
				case (prev < 0 || pattern[prev] == '/') &&
					(p == len(pattern) || pattern[p] == '/' || (pattern[p] == '\\' && byteAt(pattern, p+1) == '/')):
					// "**" between slashes: first try it as no
					// directory at all, so "a/**/b" matches "a/b".
					if byteAt(pattern, p) == '/' && dowild(pattern[p+1:], text[t:], pathname) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			} else {
				matchSlash = !pathname
			}
			if p == len(pattern) {
				// A trailing "**" matches everything, a trailing '*'
				// only what has no more slashes.
				if !matchSlash && strings.IndexByte(text[t:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && pattern[p] == '/' {
				// One star then a slash: the rest of this directory
				// name; the loop consumes both slashes.
				i := strings.IndexByte(text[t:], '/')
				if i < 0 {
					return wmNoMatch
				}
				t += i
				continue
			}
			for t < len(text) {
				tc = text[t]
				if next := pattern[p]; !isGlobSpecial(next) {
					// A literal follows the star: skip to its next
					// occurrence (within this directory name unless
					// the star crosses slashes).
					for t < len(text) && (matchSlash || text[t] != '/') && text[t] != next {
						t++
					}
					if tc = byteAt(text, t); tc != next {
						return wmNoMatch
					}
				}
				if m := dowild(pattern[p:], text[t:], pathname); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tc == '/' {
					return wmAbortToStarStar
				}
				t++
			}
			return wmAbortAll
		case '[':
			end, ok := matchClass(pattern, p, tc)
			if end < 0 {
				return wmAbortAll // unterminated or unknown class
			}
			if !ok || (pathname && tc == '/') {
				return wmNoMatch
			}
			p = end
		}
	}
	if t < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// matchClass reads the bracket expression opening at pattern[open] and
// reports whether c is in it and the index of its closing ']', or -1 when
// git would abort the whole match (no closing bracket, an unknown
// [:class:]). As in git, the first member may be ']', a '-' between two
// members makes a range and a backslash makes the next byte a member.
func matchClass(pattern string, open int, c byte) (end int, ok bool) {
	p := open + 1
	pc := byteAt(pattern, p)
	negated := pc == '!' || pc == '^'
	if negated {
		p++
	}
	var prev byte
	matched := false
	for {
		if p >= len(pattern) {
			return -1, false
		}
		pc = pattern[p]
		switch {
		case pc == '\\':
			p++
			if p >= len(pattern) {
				return -1, false
			}
			pc = pattern[p]
			if c == pc {
				matched = true
			}
		case pc == '-' && prev != 0 && p+1 < len(pattern) && pattern[p+1] != ']':
			p++
			pc = pattern[p]
			if pc == '\\' {
				p++
				if p >= len(pattern) {
					return -1, false
				}
				pc = pattern[p]
			}
			if c <= pc && c >= prev {
				matched = true
			}
			pc = 0 // a range cannot start another
		case pc == '[' && byteAt(pattern, p+1) == ':':
			s := p + 2
			q := strings.IndexByte(pattern[s:], ']')
			if q < 0 {
				return -1, false
			}
			q += s
			if q-s-1 < 0 || pattern[q-1] != ':' {
				// No ":]": the '[' is a plain member.
				if c == '[' {
					matched = true
				}
				break
			}
			in, known := posixClass(pattern[s:q-1], c)
			if !known {
				return -1, false
			}
			if in {
				matched = true
			}
			p, pc = q, 0
		default:
			if c == pc {
				matched = true
			}
		}
		prev = pc
		if p++; byteAt(pattern, p) == ']' {
			return p, matched != negated
		}
	}
}

// posixClass reports whether c is in the named [:class:], with git's
// ASCII-only character types, and whether the name is one git knows.
func posixClass(name string, c byte) (in, known bool) {
	upper, lower, digit := c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9'
	alpha := upper || lower
	print := c >= 0x20 && c <= 0x7e
	space := c == ' ' || c == '\t' || c == '\n' || c == '\r'
	switch name {
	case "alnum":
		return alpha || digit, true
	case "alpha":
		return alpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return print && !space, true
	case "lower":
		return lower, true
	case "print":
		return print, true
	case "punct":
		return print && !space && !alpha && !digit, true
	case "space":
		return space, true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'), true
	}
	return false, false
}
