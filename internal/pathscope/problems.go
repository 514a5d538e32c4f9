package pathscope

import (
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Problem codes reported in Facts.Problems. They are part of the policy
// input contract: Rego rules match on these exact strings, so never rename one.
const (
	ProblemEmpty           = "empty"            // the raw path is ""
	ProblemAbsolute        = "absolute"         // "/x", "~", "C:", "\\\\host", "file:", "scheme://"
	ProblemBackslash       = "backslash"        // contains '\', a separator on Windows
	ProblemNUL             = "nul"              // contains a NUL byte
	ProblemControlChar     = "control_char"     // C0 (except NUL, which is "nul"), DEL or C1
	ProblemPercentEscape   = "percent_escape"   // '%' followed by two hex digits
	ProblemTraversal       = "traversal"        // a ".." climbs above the root
	ProblemEscapesWorktree = "escapes_worktree" // a symlink resolves outside the root
	ProblemSymlink         = "symlink"          // the path or one of its parents is a symlink
	ProblemGitInternal     = "git_internal"     // a component is ".git" (any case)
	ProblemStateDir        = "state_dir"        // under .ai/tmp/, mcpc's own state
	ProblemNotFound        = "not_found"        // nothing exists there (or it cannot be reached)
	ProblemNotRegular      = "not_regular"      // exists but is a directory, FIFO, socket or device
	ProblemHardLinked      = "hard_linked"      // a non-directory with more than one link
	ProblemTooLong         = "too_long"         // > 4096 bytes, a component > 255, or past PATH_MAX below the root
	ProblemInvalidUTF8     = "invalid_utf8"     // not valid UTF-8 (overlong forms included)
	ProblemUnicodeFormat   = "unicode_format"   // invisible format characters: bidi, zero-width, BOM
)

// Limits of Linux (PATH_MAX and NAME_MAX); a longer name can never be opened.
const (
	maxPathBytes      = 4096
	maxComponentBytes = 255
)

// stateDir is mcpc's own state directory; agents have no business there.
const stateDir = ".ai/tmp"

// syntax is what can be learnt about a raw path without touching the disk.
type syntax struct {
	canonical string   // "" when no repository-relative path can be formed
	problems  []string // unsorted, may hold duplicates
}

// analyzeSyntax checks raw as a string. The canonical form is withheld for
// any problem that means the string cannot name a file below the root on this
// system (absolute, traversal, NUL, ...); problems that only make a name
// unusual (percent escapes, format characters) keep it, so policy can still
// see which literal name was asked for.
func analyzeSyntax(raw string) syntax {
	if raw == "" {
		return syntax{problems: []string{ProblemEmpty}}
	}
	var s syntax
	add := func(code string) { s.problems = append(s.problems, code) }

	if len(raw) > maxPathBytes || hasLongComponent(raw) {
		add(ProblemTooLong)
	}
	if !utf8.ValidString(raw) {
		add(ProblemInvalidUTF8)
	}
	if isAbsolute(raw) {
		add(ProblemAbsolute)
	}
	if strings.ContainsRune(raw, '\\') {
		add(ProblemBackslash)
	}
	if hasPercentEscape(raw) {
		add(ProblemPercentEscape)
	}
	// Treat '\' as a separator too: "..\..\x" is a traversal to any consumer
	// that runs on Windows, and saying so helps whoever reads the denial.
	if climbsAboveRoot(raw) {
		add(ProblemTraversal)
	}
	for _, r := range raw {
		switch {
		case r == 0:
			add(ProblemNUL)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			add(ProblemControlChar)
		case r >= 0xa0 && isFormatChar(r): // no ASCII or C1 character is one; most paths skip the tables
			add(ProblemUnicodeFormat)
		}
	}

	for _, p := range s.problems {
		switch p {
		case ProblemPercentEscape, ProblemUnicodeFormat:
			// literal names: keep the canonical form
		default:
			return s
		}
	}
	s.canonical = path.Clean(raw)
	return s
}

// sortedProblems returns codes sorted and de-duplicated, never nil.
func sortedProblems(codes []string) []string {
	out := append([]string{}, codes...)
	slices.Sort(out)
	return slices.Compact(out)
}

func hasLongComponent(raw string) bool {
	for c := range strings.SplitSeq(raw, "/") {
		if len(c) > maxComponentBytes {
			return true
		}
	}
	return false
}

// isAbsolute reports forms that name something outside the repository on
// some platform or in some consumer: POSIX roots, the shell's home, Windows
// drives and UNC shares, and URLs.
func isAbsolute(raw string) bool {
	switch {
	case strings.HasPrefix(raw, "/"), strings.HasPrefix(raw, "~"),
		strings.HasPrefix(raw, `\`): // `\\server\share` and `\rooted` on Windows
		return true
	case len(raw) >= 2 && isASCIILetter(raw[0]) && raw[1] == ':': // "C:", "C:\", "c:foo"
		return true
	case len(raw) >= 5 && strings.EqualFold(raw[:5], "file:"):
		return true
	}
	return hasURLScheme(raw)
}

// hasURLScheme reports an RFC 3986 scheme followed by "://".
func hasURLScheme(raw string) bool {
	i := strings.Index(raw, "://")
	if i <= 0 || !isASCIILetter(raw[0]) {
		return false
	}
	for j := 1; j < i; j++ {
		c := raw[j]
		if !isASCIILetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func hasPercentEscape(raw string) bool {
	for i := 0; i+2 < len(raw); i++ {
		if raw[i] == '%' && isHex(raw[i+1]) && isHex(raw[i+2]) {
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c|0x20 && c|0x20 <= 'f')
}

// climbsAboveRoot reports whether some ".." segment, after the segments
// before it are cleaned, would leave the starting directory.
func climbsAboveRoot(raw string) bool {
	depth := 0
	for seg := range strings.FieldsFuncSeq(raw, func(r rune) bool { return r == '/' || r == '\\' }) {
		switch seg {
		case ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}

// isFormatChar reports invisible characters that make two different names
// look identical or reorder how a name is displayed (Trojan Source): bidi
// controls, zero-width characters, the BOM, tag characters, variation
// selectors, and the line and paragraph separators. Some filesystems (HFS+)
// even ignore a few of them, so ".g\u200cit" can open ".git".
func isFormatChar(r rune) bool {
	return unicode.In(r,
		unicode.Cf, // format: U+200B..U+200F, U+202A..U+202E, U+2060..U+2069, U+FEFF, tags
		unicode.Zl, unicode.Zp,
		unicode.Variation_Selector,
		unicode.Other_Default_Ignorable_Code_Point, // e.g. U+115F, U+3164 Hangul fillers
	)
}

// isGitInternal reports a ".git" component in any case: case-insensitive
// filesystems (macOS, Windows) open the real .git for ".GIT".
func isGitInternal(canonical string) bool {
	for c := range strings.SplitSeq(canonical, "/") {
		if strings.EqualFold(c, ".git") {
			return true
		}
	}
	return false
}

// isStateDir reports a path at or below .ai/tmp, case-insensitively for the
// same reason as isGitInternal.
func isStateDir(canonical string) bool {
	n := len(stateDir)
	return len(canonical) >= n && strings.EqualFold(canonical[:n], stateDir) &&
		(len(canonical) == n || canonical[n] == '/')
}
