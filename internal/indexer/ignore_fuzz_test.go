package indexer

import (
	"strings"
	"testing"
)

// Fuzz inputs are spelled in small alphabets, so that random bytes make
// patterns with stars, classes, escapes and slashes, and paths those
// patterns can reach.
const (
	fuzzLineAlphabet = "ab*?/[]!^-\\: #.c"
	fuzzPathAlphabet = "ab/.*[]\\!-c"
)

func spell(s, alphabet string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = alphabet[int(c)%len(alphabet)]
	}
	return string(b)
}

// cleanPath makes s a path the walk could produce: no empty names.
func cleanPath(s string) string {
	var names []string
	for _, n := range strings.Split(s, "/") {
		if n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "a"
	}
	return strings.Join(names, "/")
}

// ruleTakes reports whether r matches rel, as one rule of a root set.
func ruleTakes(r ignoreRule, rel string, isDir bool) bool {
	if r.dirOnly && !isDir {
		return false
	}
	if r.basename {
		return r.matches(rel[strings.LastIndexByte(rel, '/')+1:])
	}
	return r.matches(rel)
}

// FuzzIgnoreRule checks the literal fast paths of compileIgnoreRule
// against wildmatch on the same line, and both against the regexp
// translation they replaced wherever that agreed with git.
func FuzzIgnoreRule(f *testing.F) {
	for _, seed := range []struct{ line, path string }{
		{"*.min.js", "static/app.min.js"}, {"node_modules/", "a/node_modules"}, {"/dist", "dist"},
		{"/npm-debug.log.*", "npm-debug.log.1"}, {"docs/**/*.png", "docs/a/b/c.png"}, {"!keep.log", "keep.log"},
		{"file[0-9].txt", "file7.txt"}, {"a/**", "a/b/c"}, {"**/tmp", "x/tmp"}, {"/a**", "a/b"}, {"a**b", "a/x/b"},
		{"*", "x"}, {"/*", "a/b"}, {`\#x`, "#x"}, {`a\*`, "a*"}, {"[!a]*", "b"}, {"[[:digit:]]x", "1x"},
		{"[]a]", "]"}, {"[a-]", "-"}, {"***/x", "x"}, {"a/**/b", "a/b"}, {"*_generated.*", "x/a_generated.ts"},
	} {
		f.Add(seed.line, seed.path, false)
	}
	f.Fuzz(func(t *testing.T, line, rel string, isDir bool) {
		if strings.ContainsAny(line, "\n") || strings.ContainsAny(rel, "\x00") {
			return
		}
		line, rel = spell(line, fuzzLineAlphabet), cleanPath(spell(rel, fuzzPathAlphabet))
		r, ok := compileIgnoreRule(line)
		if ok {
			general := r
			general.kind = ruleWild
			if r.kind == ruleSuffix || r.kind == ruleContains {
				general.lit = ""
			}
			if fast, slow := ruleTakes(r, rel, isDir), ruleTakes(general, rel, isDir); fast != slow {
				t.Fatalf("line %q path %q dir %v: fast path (kind %d) says %v, wildmatch %v", line, rel, isDir, r.kind, fast, slow)
			}
		}
		if !legacyAgrees(line) {
			return
		}
		old, oldOK := compileLegacyRule(line)
		if ok != oldOK {
			t.Fatalf("line %q: compiled %v, the regexp translation %v", line, ok, oldOK)
		}
		if !ok {
			return
		}
		want := (!old.dirOnly || isDir) && old.matches(rel)
		if got := ruleTakes(r, rel, isDir); got != want || r.negate != old.negate {
			t.Fatalf("line %q path %q dir %v: matches %v (negate %v), the regexp translation %v (negate %v)",
				line, rel, isDir, got, r.negate, want, old.negate)
		}
	})
}
