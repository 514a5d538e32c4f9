package retrieval

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/mcpc/mcpc/internal/indexer"
)

// This file holds the general signals of issue 20: each says something true
// of repositories in general (how people name folders, quote UI text, lay
// out components and locales), not a constant fitted to one set.

// conventionalTypes are the commit types of Conventional Commits and their
// common relatives. Any other "word:" prefix is a package or area name
// ("caddyhttp: …", "reverseproxy: …") and is kept as a scope.
var conventionalTypes = map[string]bool{
	"fix": true, "feat": true, "feature": true, "chore": true, "refactor": true, "perf": true,
	"docs": true, "doc": true, "test": true, "tests": true, "style": true, "build": true,
	"ci": true, "revert": true, "wip": true, "deps": true, "release": true, "security": true,
	"breaking": true, "hotfix": true, "bugfix": true, "improvement": true, "cleanup": true,
	"performance": true, "enhancement": true, "typo": true, "misc": true, "minor": true,
}

var scopeHead = regexp.MustCompile(`^([A-Za-z][\w.-]*)(?:\(([^)]+)\))?!?:\s`)

// promptScope returns the scope a prompt's prefix names and the prompt
// without its commit type: "feat(editor): x" gives "editor"; "caddyhttp:
// x" gives "caddyhttp" (a package prefix names its folder); "fix: x" gives
// no scope. Scopes like "packages/excalidraw" are kept whole.
func promptScope(p string) (scope, rest string) {
	m := scopeHead.FindStringSubmatch(p)
	if m == nil {
		return "", p
	}
	rest = strings.TrimSpace(p[len(m[0]):])
	if m[2] != "" {
		return m[2], rest
	}
	if conventionalTypes[strings.ToLower(m[1])] {
		return "", rest
	}
	// Package and folder names are lower-case; "Javadoc:" or "Checkstyle:"
	// is not a folder but still a word of the task, kept in rest: dropping
	// it with the commit types lost the one word that said what the
	// change touches ("Javadoc: Remove obsolete comments and clarify").
	if m[1] != strings.ToLower(m[1]) {
		return "", m[1] + " " + rest
	}
	return m[1], rest
}

// scopeLane marks files inside a folder the scope names. Like anchors it
// only reorders files another lane found: a scope says where, not what.
func (d *derived) scopeLane(scope string, found map[int32]bool) map[int32]float64 {
	out := map[int32]float64{}
	if scope == "" {
		return out
	}
	var want []string
	for _, part := range strings.FieldsFunc(strings.ToLower(scope), func(r rune) bool { return r == '/' || r == ',' || r == ' ' }) {
		if part != "" {
			want = append(want, part)
		}
	}
	for doc := range found {
		dirs := strings.Split(strings.ToLower(path.Dir(d.corpus.Files[doc])), "/")
		for _, w := range want {
			for _, dir := range dirs {
				if dir == w || strings.TrimSuffix(dir, "s") == strings.TrimSuffix(w, "s") {
					out[doc] = 1
				}
			}
		}
	}
	return out
}

// asksForTests reports whether the task is about tests: only then do test
// files belong in the pack. Otherwise they share the task's words with the
// code under test and take the slots the code needs.
var testWords = regexp.MustCompile(`(?i)\b(tests?|testing|specs?|e2e|unit|fixtures?|mocks?|coverage|jest|pytest|junit|cypress|playwright)\b`)

func asksForTests(q Query) bool {
	return testWords.MatchString(q.Prompt + " " + strings.Join(q.Lexemes, " "))
}

// quoted finds the exact strings a prompt quotes: UI labels ("rename the
// 'Export data' button"), messages and backquoted code. A quoted string is
// the strongest evidence a prompt carries: the file holding it verbatim is
// where the text lives.
var quotedRE = regexp.MustCompile("'([^']{3,80})'|\"([^\"]{3,80})\"|“([^”]{3,80})”|`([^`]{2,80})`")

func quotedPhrases(prompt string) []string {
	var out []string
	for _, m := range quotedRE.FindAllStringSubmatch(prompt, -1) {
		for _, g := range m[1:] {
			if g = strings.TrimSpace(g); g != "" {
				out = append(out, g)
			}
		}
	}
	return out
}

// phraseLane scores files that contain a quoted phrase verbatim (case
// folded). Candidates are the files whose postings hold every term of the
// phrase; only those are read. A hit in the default locale's catalogue also
// finds the templates and code that use the message's key, since in an
// i18n'd app the UI text lives in the catalogue and the key in the code.
func (d *derived) phraseLane(ix *indexer.Index, q Query) map[int32]float64 {
	out := map[int32]float64{}
	named := namedLocales(q.Prompt)
	for _, phrase := range quotedPhrases(q.Prompt) {
		for _, doc := range d.containing(ix, phrase) {
			file := d.corpus.Files[doc]
			code, isLocale := localeOf(file)
			if isLocale && !isDefaultLocale(code) && !named[code] {
				continue
			}
			out[doc] = 1
			if !isLocale {
				continue
			}
			for _, key := range messageKeys(ix, file, phrase) {
				for _, user := range d.containing(ix, key) {
					if _, userLocale := localeOf(d.corpus.Files[user]); !userLocale {
						out[user] = max(out[user], 0.9)
					}
				}
			}
		}
	}
	return out
}

// maxPhraseCandidates bounds the files read for one phrase: a phrase of
// common words is not evidence worth reading a thousand files for.
const maxPhraseCandidates = 200

// containing returns the documents whose content holds s verbatim, case
// folded.
func (d *derived) containing(ix *indexer.Index, s string) []int32 {
	terms := uniqueTerms(s)
	if len(terms) == 0 {
		return nil
	}
	var cands map[int32]bool
	for _, t := range terms {
		next := map[int32]bool{}
		for _, p := range d.corpus.Postings(t) {
			if cands == nil || cands[p.Doc] {
				next[p.Doc] = true
			}
		}
		cands = next
		if len(cands) == 0 {
			return nil
		}
	}
	if len(cands) > maxPhraseCandidates {
		return nil
	}
	needle := strings.ToLower(s)
	var out []int32
	for doc := range cands {
		data, err := os.ReadFile(filepath.Join(ix.Root(), filepath.FromSlash(d.corpus.Files[doc])))
		if err == nil && strings.Contains(strings.ToLower(string(data)), needle) {
			out = append(out, doc)
		}
	}
	return out
}

// messageKeyRE reads the key of a catalogue line: `"a.b.c": "Text"`,
// `a.b.c=Text` (properties), `msgid "Text"` is its own key.
var messageKeyRE = regexp.MustCompile(`^\s*["']?([A-Za-z0-9_.\-]{3,})["']?\s*[:=]`)

// messageKeys returns the keys of catalogue lines holding phrase. A key
// equal to the phrase (outline's t("Export data")) adds nothing and is
// left out.
func messageKeys(ix *indexer.Index, file, phrase string) []string {
	data, err := os.ReadFile(filepath.Join(ix.Root(), filepath.FromSlash(file)))
	if err != nil {
		return nil
	}
	needle := strings.ToLower(phrase)
	var keys []string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.Contains(strings.ToLower(line), needle) {
			continue
		}
		if m := messageKeyRE.FindStringSubmatch(line); m != nil && !strings.EqualFold(m[1], phrase) && strings.ContainsAny(m[1], "._-") {
			keys = append(keys, m[1])
		}
	}
	return keys
}

var (
	localeDirRE  = regexp.MustCompile(`(?i)(^|/)(i18n|l10n|locales?|lang|langs|languages|translations?|messages)(/|$)`)
	localeCodeRE = regexp.MustCompile(`^([a-z]{2,3})([-_][A-Za-z]{2,4})?$`)
	propsLocale  = regexp.MustCompile(`_([a-z]{2,3}(?:_[A-Z]{2})?)$`)
	catalogueExt = map[string]bool{".json": true, ".json5": true, ".po": true, ".yml": true, ".yaml": true, ".properties": true, ".xlf": true, ".arb": true, ".ftl": true}
)

// localeOf reports whether file is a message catalogue and its locale code
// (lower-cased, "_" for "-"; "" when the catalogue has no code: the
// default of Java's messages.properties).
func localeOf(file string) (string, bool) {
	ext := strings.ToLower(path.Ext(file))
	if !catalogueExt[ext] {
		return "", false
	}
	stem := strings.TrimSuffix(path.Base(file), path.Ext(file))
	if ext == ".properties" {
		if !strings.HasPrefix(stem, "messages") {
			return "", false
		}
		if m := propsLocale.FindStringSubmatch(stem); m != nil {
			return normLocale(m[1]), true
		}
		return "", true
	}
	if !localeDirRE.MatchString(file) {
		return "", false
	}
	if localeCodeRE.MatchString(stem) {
		return normLocale(stem), true
	}
	for _, dir := range strings.Split(path.Dir(file), "/") {
		if localeCodeRE.MatchString(dir) {
			return normLocale(dir), true
		}
	}
	return "", false
}

func normLocale(s string) string { return strings.ReplaceAll(strings.ToLower(s), "-", "_") }

// isDefaultLocale: English is the source language of nearly every
// catalogue; other locales are translations of it.
func isDefaultLocale(code string) bool {
	return code == "" || code == "en" || strings.HasPrefix(code, "en_")
}

var languageNames = map[string]string{
	"german": "de", "french": "fr", "spanish": "es", "italian": "it", "portuguese": "pt", "dutch": "nl",
	"russian": "ru", "chinese": "zh", "japanese": "ja", "korean": "ko", "polish": "pl", "turkish": "tr",
	"swedish": "sv", "czech": "cs", "ukrainian": "uk", "arabic": "ar", "hebrew": "he", "finnish": "fi",
}

var localeWordRE = regexp.MustCompile(`\b[a-z]{2}(?:[-_][A-Za-z]{2})?\b`)

// namedLocales returns the locales a prompt names, by code ("fr", "pt_BR")
// or language ("German"): only then do other locales' catalogues belong in
// the pack.
func namedLocales(prompt string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(prompt)) {
		w = strings.Trim(w, ".,;:!?()'\"`")
		if code, ok := languageNames[w]; ok {
			out[code] = true
		}
	}
	for _, w := range localeWordRE.FindAllString(prompt, -1) {
		if len(w) > 2 { // "fr" alone is too often a word fragment; "pt_BR" is not
			out[normLocale(w)] = true
			out[normLocale(w[:2])] = true
		}
	}
	return out
}

// unwantedLocale reports a catalogue of a locale the prompt does not name:
// translations share every word of the default catalogue and would crowd
// it out of the pack.
func unwantedLocale(file string, named map[string]bool) bool {
	code, ok := localeOf(file)
	if !ok || isDefaultLocale(code) {
		return false
	}
	return !named[code] && !named[code[:min(2, len(code))]]
}

// companionExts are the files a component is split into: its template and
// its stylesheet sit beside its code under the same stem.
var companionExts = map[string]bool{".html": true, ".scss": true, ".css": true, ".less": true, ".sass": true, ".styl": true, ".vue": true, ".hbs": true}

// companions gives the template and stylesheet siblings of the best files
// a share of their score: a UI change to ItemComponent often edits
// item.component.html or .scss too, and their text rarely repeats the
// prompt's words.
func (d *derived) companions(seeds []docScore) map[int32]float64 {
	out := map[int32]float64{}
	if len(seeds) == 0 {
		return out
	}
	byStem := d.stems()
	top := seeds[0].total
	for _, s := range seeds {
		f := d.corpus.Files[s.doc]
		for _, sib := range byStem[stemKey(f)] {
			if sib == s.doc || !companionExts[strings.ToLower(path.Ext(d.corpus.Files[sib]))] {
				continue
			}
			out[sib] = max(out[sib], s.total/top)
		}
	}
	return out
}

// stemKey is a file's directory and its name up to the first dot:
// "src/app/item.component.ts" -> "src/app/item".
func stemKey(f string) string {
	dir, base := path.Split(f)
	if i := strings.IndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return dir + base
}

func (d *derived) stems() map[string][]int32 { return d.filesBy(&d.byStem, stemKey) }

// filesBy groups the corpus's files by key(file), built on first use into
// *m and kept with the derived lookups.
func (d *derived) filesBy(m *map[string][]int32, key func(string) string) map[string][]int32 {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if *m == nil {
		*m = map[string][]int32{}
		for i, f := range d.corpus.Files {
			k := key(f)
			(*m)[k] = append((*m)[k], int32(i))
		}
	}
	return *m
}
