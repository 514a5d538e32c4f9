package indexer

import (
	"bufio"
	"bytes"
	"path"
	"regexp"
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

// ignoreRule is one gitignore line compiled to a regular expression over a
// path relative to the directory holding the rule.
type ignoreRule struct {
	// Most rules are a plain name ("node_modules") or an extension glob
	// ("*.min.js"); they skip the regexp, which dominates walk time.
	baseName string
	suffix   string
	exact    string // anchored, no wildcard: the whole path
	prefix   string // anchored, one trailing '*': a name in one folder
	re       *regexp.Regexp
	negate   bool
	dirOnly  bool
}

// ignoreSet is the rules of one directory level (a .gitignore, or the
// defaults and Options.Exclude at the root).
type ignoreSet struct {
	base  string // repository-relative directory, "" for the root
	rules []ignoreRule
}

func parseIgnore(base string, data []byte) *ignoreSet {
	set := &ignoreSet{base: base}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if r, ok := compileIgnoreRule(sc.Text()); ok {
			set.rules = append(set.rules, r)
		}
	}
	return set
}

func compileIgnoreRule(line string) (ignoreRule, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	var r ignoreRule
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
		return ignoreRule{}, false
	}
	if !anchored && !strings.ContainsAny(line, "*?[") {
		r.baseName = line
		return r, true
	}
	if !anchored && strings.HasPrefix(line, "*") && !strings.ContainsAny(line[1:], "*?[") {
		r.suffix = line[1:]
		return r, true
	}
	if anchored && !strings.ContainsAny(line, "*?[") {
		r.exact = line
		return r, true
	}
	if anchored && strings.HasSuffix(line, "*") && !strings.ContainsAny(line[:len(line)-1], "*?[") {
		r.prefix = line[:len(line)-1]
		return r, true
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
		return ignoreRule{}, false
	}
	r.re = re
	return r, true
}

// ignoreStack is the chain of rule sets that apply inside one directory.
type ignoreStack []*ignoreSet

// ignored reports whether rel (repository-relative, '/'-separated) is
// excluded. Deeper sets and later rules win, as in git.
func (st ignoreStack) ignored(rel string, isDir bool) bool {
	for i := len(st) - 1; i >= 0; i-- {
		set := st[i]
		p := rel
		if set.base != "" {
			if !strings.HasPrefix(rel, set.base+"/") {
				continue
			}
			p = rel[len(set.base)+1:]
		}
		for j := len(set.rules) - 1; j >= 0; j-- {
			r := set.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			if r.matches(p) {
				return !r.negate
			}
		}
	}
	return false
}

func (r ignoreRule) matches(p string) bool {
	switch {
	case r.baseName != "":
		return p == r.baseName || strings.HasSuffix(p, "/"+r.baseName)
	case r.suffix != "":
		return strings.HasSuffix(p, r.suffix)
	case r.exact != "":
		return p == r.exact
	case r.prefix != "":
		return strings.HasPrefix(p, r.prefix) && !strings.Contains(p[len(r.prefix):], "/")
	}
	return r.re.MatchString(p)
}
