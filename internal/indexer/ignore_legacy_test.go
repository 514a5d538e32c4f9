package indexer

import (
	"regexp"
	"strings"
)

// legacyRule is how ignore rules were matched before wildmatch.go: each
// line translated to one regular expression over the path. It stays as a
// second opinion for FuzzIgnoreRule on the lines where it agrees with git
// (legacyAgrees); on the rest it was wrong (see TestIgnoreMatchesGit).
type legacyRule struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

func compileLegacyRule(line string) (legacyRule, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return legacyRule{}, false
	}
	var r legacyRule
	if strings.HasPrefix(line, "!") {
		r.negate = true
		line = line[1:]
	}
	line = strings.TrimPrefix(line, `\`)
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = strings.TrimRight(line, "/")
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return legacyRule{}, false
	}
	var b strings.Builder
	if anchored {
		b.WriteString("^")
	} else {
		b.WriteString("^(?:.*/)?")
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case strings.HasPrefix(line[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(line[i:], "/**") && i+3 == len(line):
			b.WriteString("/.*")
			i += 2
		case strings.HasPrefix(line[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(line[i:], ']')
			if j < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := line[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return legacyRule{}, false
	}
	r.re = re
	return r, true
}

// legacyAgrees reports whether the regexp translation means what git
// means by line: ASCII without backslashes, brackets, trailing blanks or
// doubled slashes, and every run of stars either one star, a whole
// directory name, a name's leading "**", or (on an anchored line) "**"
// right after the literal prefix and before a slash or the end, where git
// also lets it cross slashes.
// Outside that the translation differed from git: "a**b" crossed
// directories, "\*" was a backslash and a star, "[]a]" was no rule, a
// trailing tab was dropped, "a//" was "a/".
func legacyAgrees(line string) bool {
	for i := 0; i < len(line); i++ {
		if c := line[i]; c < 0x20 || c > 0x7e || c == '\\' || c == '[' || c == ']' {
			return false
		}
	}
	if strings.TrimRight(line, " ") != line || strings.Contains(line, "//") || strings.HasPrefix(line, "#") {
		return false
	}
	body := strings.TrimPrefix(line, "!")
	body = strings.TrimSuffix(body, "/")
	if body == "" || strings.HasSuffix(body, "/") {
		return false
	}
	anchored := strings.Contains(body, "/")
	body = strings.TrimPrefix(body, "/")
	first := simpleLength(body)
	for i := 0; i < len(body); i++ {
		if body[i] != '*' {
			continue
		}
		j := i
		for j < len(body) && body[j] == '*' {
			j++
		}
		if j-i > 2 {
			return false // "***/x" did not match x
		}
		if j-i == 2 {
			end := j == len(body) || body[j] == '/'
			whole := (i == 0 || body[i-1] == '/') && end
			switch {
			case !anchored && i != 0: // "a**" crossed into deeper names
				return false
			case anchored && !whole && !(i == first && end):
				return false
			}
		}
		i = j - 1
	}
	return true
}

func (r legacyRule) matches(p string) bool { return r.re.MatchString(p) }
