package indexer

import (
	"bufio"
	"bytes"
	"path"
	"strings"
)

// defaultExcludes are skipped in every workspace: VCS data, dependencies,
// build output, mcpc's own runtime state and generated or minified files.
var defaultExcludes = []string{
	".git/", ".hg/", ".svn/", "node_modules/", "bower_components/", "dist/", "build/", "out/",
	"coverage/", ".angular/", ".nx/", ".next/", ".nuxt/", ".cache/", "vendor/", "__pycache__/",
	".venv/", "venv/", "target/", ".gradle/", ".idea/", ".vscode/", "/.ai/tmp/",
	"*.min.js", "*.min.css", "*.map", "*.bundle.js", "*.chunk.js", "*.lock",
	"package-lock.json", "pnpm-lock.yaml", "*.snap", "*.pb.go", "*_generated.*", "*.generated.*",
}

// neverIndexed is what no .gitignore rule can bring back (a "!/.ai/tmp/"
// line negates the defaults above): git's own data, at any depth, mcpc's
// runtime state, and the connectors' credentials (.ai/auth): the index
// keeps what it reads in the store, where a token must never be.
func neverIndexed(rel string) bool {
	return rel == ".ai/tmp" || rel == ".ai/auth" || strings.EqualFold(path.Base(rel), ".git")
}

// binaryExtensions are skipped without reading: they are never text.
var binaryExtensions = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`png jpg jpeg gif bmp ico webp avif tiff psd svgz
		woff woff2 ttf otf eot pdf zip gz tgz bz2 xz 7z rar jar war class so dylib dll exe o a
		wasm mp3 mp4 m4a wav ogg webm mov avi mkv flac sqlite db bin dat pyc pyo node`) {
		binaryExtensions["."+e] = true
	}
}

// ignoreRule is one gitignore line, matched as git matches it (dir.c and
// wildmatch.c). Most lines are a plain name ("node_modules"), an extension
// glob ("*.min.js") or a path in one folder ("/npm-debug.log.*"): those
// are string comparisons. The rest go to wildmatch, after the literal
// prefix git also compares first.
type ignoreRule struct {
	kind ruleKind
	// basename: the line has no slash, so it names the last element of a
	// path at any depth below its .gitignore, not a path from there.
	basename bool
	lit      string // the literal part (see ruleKind)
	rest     string // the pattern after the literal prefix, for ruleWild
	negate   bool
	dirOnly  bool
}

// ruleKind is how an ignoreRule matches the name or path s.
type ruleKind uint8

const (
	ruleExact    ruleKind = iota // s == lit
	ruleSuffix                   // "*lit" on a name: s ends with lit
	rulePrefix                   // "lit*": s starts with lit, and no slash follows
	ruleUnder                    // "lit**" (and "lit*" on a name): s starts with lit
	ruleContains                 // "*lit*" on a name: lit is in s
	ruleWild                     // s starts with lit and wildmatch(rest) takes the remainder
)

// ignoreSet is the rules of one directory level (a .gitignore, or the
// defaults and Options.Exclude at the root).
type ignoreSet struct {
	base  string // repository-relative directory, "" for the root
	rules []ignoreRule
	text  []byte // the .gitignore the rules were parsed from (listingcache.go)
}

// utf8BOM is skipped at the start of a .gitignore, as git does.
const utf8BOM = "\ufeff"

func parseIgnore(base string, data []byte) *ignoreSet {
	set := &ignoreSet{base: base, text: data}
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if r, ok := compileIgnoreRule(sc.Text()); ok {
			set.rules = append(set.rules, r)
		}
	}
	return set
}

// trimTrailingSpaces drops the spaces that end a line unless a backslash
// quotes them ("name\ " keeps its space), as git does. Tabs stay.
func trimTrailingSpaces(line string) string {
	end := len(line)
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			continue
		case '\\':
			i++
		}
		end = min(i+1, len(line))
	}
	return line[:end]
}

// simpleLength is how many bytes of pattern are literal: git's
// simple_length, up to the first '*', '?', '[' or '\\'.
func simpleLength(pattern string) int {
	for i := 0; i < len(pattern); i++ {
		if isGlobSpecial(pattern[i]) {
			return i
		}
	}
	return len(pattern)
}

func compileIgnoreRule(line string) (ignoreRule, bool) {
	line = trimTrailingSpaces(strings.TrimSuffix(line, "\r"))
	if line == "" || line[0] == '#' {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if line[0] == '!' {
		r.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") { // git drops one slash: "a//" names the path "a/"
		r.dirOnly = true
		line = line[:len(line)-1]
	}
	// A slash at the start or in the middle anchors the line to its
	// .gitignore's directory.
	r.basename = !strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	if line == "" {
		return ignoreRule{}, false // matches nothing
	}
	n := simpleLength(line)
	r.lit, r.rest = line[:n], line[n:]
	stars := strings.Trim(r.rest, "*") == ""
	switch {
	case r.rest == "":
		r.kind = ruleExact
	case r.basename && n == 0 && r.rest[0] == '*' && simpleLength(r.rest[1:]) == len(r.rest)-1:
		r.kind, r.lit = ruleSuffix, r.rest[1:]
	case r.basename && n == 0 && isContains(r.rest):
		r.kind, r.lit = ruleContains, r.rest[1:len(r.rest)-1]
	case stars && (r.basename || len(r.rest) > 1):
		// A name has no slash to stop a star; on a path git starts
		// matching after the literal prefix, so "**" there counts as
		// being at a directory boundary and crosses slashes.
		r.kind = ruleUnder
	case stars:
		r.kind = rulePrefix
	default:
		r.kind = ruleWild
	}
	return r, true
}

// isContains reports whether pattern is "*lit*" with a literal lit: on a
// name, where stars match anything, it asks whether lit is in the name.
func isContains(pattern string) bool {
	return len(pattern) > 2 && pattern[0] == '*' && pattern[len(pattern)-1] == '*' &&
		simpleLength(pattern[1:len(pattern)-1]) == len(pattern)-2
}

// ignoreStack is the chain of rule sets that apply inside one directory.
type ignoreStack []*ignoreSet

// ignored reports whether rel (repository-relative, '/'-separated) is
// excluded. Deeper sets and later rules win, as in git.
func (st ignoreStack) ignored(rel string, isDir bool) bool {
	name := rel[strings.LastIndexByte(rel, '/')+1:]
	for i := len(st) - 1; i >= 0; i-- {
		set := st[i]
		p := rel
		if b := set.base; b != "" {
			if len(rel) <= len(b) || rel[len(b)] != '/' || rel[:len(b)] != b {
				continue
			}
			p = rel[len(b)+1:]
		}
		for j := len(set.rules) - 1; j >= 0; j-- {
			r := &set.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			s := p
			if r.basename {
				s = name
			}
			if r.matches(s) {
				return !r.negate
			}
		}
	}
	return false
}

// matches reports whether the rule takes s: the last path element for a
// basename rule, else the path relative to the rule's directory.
func (r *ignoreRule) matches(s string) bool {
	switch r.kind {
	case ruleExact:
		return s == r.lit
	case ruleSuffix:
		return strings.HasSuffix(s, r.lit)
	case rulePrefix:
		return strings.HasPrefix(s, r.lit) && strings.IndexByte(s[len(r.lit):], '/') < 0
	case ruleUnder:
		return strings.HasPrefix(s, r.lit)
	case ruleContains:
		return strings.Contains(s, r.lit)
	}
	return strings.HasPrefix(s, r.lit) && wildmatch(r.rest, s[len(r.lit):], !r.basename)
}
