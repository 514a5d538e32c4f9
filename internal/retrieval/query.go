package retrieval

import (
	"regexp"
	"strings"

	"github.com/mcpc/mcpc/internal/indexer"
)

// Query is what a pack is built for.
type Query struct {
	Prompt  string
	Lexemes []string
	// Limit is the most files returned. Default 40.
	Limit int
	// MaxBytes bounds the summed size of the returned files. Default 2 MiB.
	MaxBytes int64
	// Boost adds externally found files (policy, artifact or memory lanes):
	// lane name -> file -> weight in [0, 1].
	Boost map[string]map[string]float64
	// Tickets reads the prompt's ticket keys (connectors.jira.keyPattern);
	// nil is the default pattern.
	Tickets *TicketKeys
	// History is the workspace's latest commits, newest first
	// (ReadHistory), for the co-change lane; nil ranks without it.
	History []Commit
}

// Ranked is one file of the result with the lanes that put it there.
type Ranked struct {
	File  string   `json:"file"`
	Score float64  `json:"score"`
	Lanes []string `json:"lanes"`
}

// Defaults for Query.
const (
	DefaultLimit    = 40
	DefaultMaxBytes = 2 << 20
)

// stopwords are prose and commit-message words that say nothing about
// where code lives. "error" and "errors" are not among them: in code they
// are identifiers and message text ("fix error message" is about the
// files that build error messages), and their rarity is weighed by IDF
// like any other word's. The prose words that tie a subject's words
// together are among them too (prose.go).
var stopwords = map[string]bool{}

func init() {
	for _, w := range append(strings.Fields(`a an the and or but if then else when while of in on at to for from by
		with without into onto over under up down out off is are was were be been being it its this that
		these those there here not no nor so too very can could should would will shall may might must
		do does did done have has had having i we you he she they them our your their my me us
		fix fixes fixed feat feature chore refactor perf docs doc test tests style build ci revert wip
		add adds added allow allows make makes made use used using via per also some any all more less
		now new old get set sometimes always never issue issues bug bugs incorrect correctly
		correct properly proper missing should instead than cannot can't don't doesn't isn't when which
		what who how why where after before during again just only still improve improved improvement
		support supports handle handling change changes changed update updates updated remove removed
		ensure prevent prevents unnecessary unneccessary`), strings.Fields(proseWords)...) {
		stopwords[w] = true
		for _, t := range indexer.Tokenize(w) {
			stopwords[t] = true
		}
	}
}

var wordRe = regexp.MustCompile(`[A-Za-z][A-Za-z0-9]*`)

func isStopword(w string) bool {
	if stopwords[w] || len(w) < 2 {
		return true
	}
	for _, t := range indexer.Tokenize(w) {
		if stopwords[t] {
			return true
		}
	}
	return false
}

// testTerms are stopwords as a commit's type ("test: …") but words of the
// task when it is about tests: "fix duplication tests pointer state
// leaking between tests" is about the test setup (setupTests.ts, conftest.py,
// a test helper), and those files are named for it.
var testTerms = map[string]bool{"test": true, "tests": true}

// lexemeConfirm is what a lexeme adds to a term the prompt already has.
const lexemeConfirm = 0.25

// queryTerm is a query term with its weight in the query.
type queryTerm struct {
	term   string
	weight float64
}

// queryTerms tokenises prompt and lexemes like the index tokenises code,
// dropping stopwords. Lexemes weigh more: the caller chose them.
func queryTerms(q Query) []queryTerm {
	weights := map[string]float64{}
	var order []string
	tests := asksForTests(q)
	add := func(text string, w float64) {
		kept := overstemmed(text)
		for _, t := range indexer.Tokenize(text) {
			if (stopwords[t] && !(tests && testTerms[t]) && !kept[t]) || len(t) < 2 {
				continue
			}
			if _, ok := weights[t]; !ok {
				order = append(order, t)
			}
			weights[t] += w
		}
	}
	// A ticket key (DURACOM-347, LANG-1830) names the work, not the code:
	// its project code is no word of the code ("acme" of ACME-7 matched
	// every file under com/acme), and the ticket lane reads the key.
	prompt := stripConventionalPrefix(q.Prompt)
	for _, k := range q.Tickets.keys(q.Prompt) {
		prompt = strings.ReplaceAll(prompt, k, " ")
	}
	add(prompt, 1)
	// Lexemes are a hint, not a cliff: a lexeme that repeats a prompt word
	// confirms it (a little more weight), one the prompt lacks adds a term.
	// Weighting every repeated word 1.5x more made two natural phrasings
	// of one task give two different packs.
	inPrompt := map[string]bool{}
	for t := range weights {
		inPrompt[t] = true
	}
	for _, l := range q.Lexemes {
		kept := overstemmed(l)
		for _, t := range indexer.Tokenize(l) {
			if (stopwords[t] && !kept[t]) || len(t) < 2 {
				continue
			}
			if inPrompt[t] {
				weights[t] += lexemeConfirm
				continue
			}
			if _, ok := weights[t]; !ok {
				order = append(order, t)
			}
			weights[t] += 1
		}
	}
	// "command menu" in prose is CommandMenu or command-menu in code:
	// adjacent prompt words also form a compound term, which only scores
	// where such an identifier exists. The index keeps a multi-part
	// identifier whole and unstemmed, and prose names in the plural what
	// code names in the singular ("error pages" is errorPage, "search
	// filters" SearchFilter): the compound is also formed with its last
	// word singular (2026-12-03, all eight sets: outline R@5 0.581 ->
	// 0.594, no other set moved). Stemming the last word with the index's
	// stemmer instead ("service" -> "servic") also matched all-lower-case
	// runs the index stems ("dataservices") and lifted a look-alike past a
	// gold file (dspace-angular R@5 -0.009). A snake_case form (a_b) was
	// measured too and not kept: with the singular it found
	// dspace-angular's ERROR_PAGE for "error pages" (R@10 0.615 -> 0.640,
	// R@20 0.685 -> 0.710) but cost the hold-out DSpace R@10 -0.009.
	words := wordRe.FindAllString(prompt, -1)
	for i := 0; i+1 < len(words); i++ {
		a, b := strings.ToLower(words[i]), strings.ToLower(words[i+1])
		if isStopword(a) || isStopword(b) {
			continue
		}
		for _, last := range compoundTails(b) {
			for _, c := range []string{a + last, a + "-" + last} {
				if _, ok := weights[c]; !ok {
					order = append(order, c)
					weights[c] = 0.5
				}
			}
		}
	}
	out := make([]queryTerm, 0, len(order))
	for _, t := range order {
		w := weights[t]
		if w > 2 {
			w = 2 // a word repeated in the prompt is not twice as important
		}
		out = append(out, queryTerm{term: t, weight: w})
	}
	return out
}

// stripConventionalPrefix removes a "type(scope):" commit prefix but keeps
// the scope, which often names the area; a "package:" prefix is kept whole
// (see promptScope).
func stripConventionalPrefix(p string) string {
	scope, rest := promptScope(p)
	if scope == "" {
		return rest
	}
	return scope + " " + rest
}

// compoundTails is the last word of a compound as the prompt has it and,
// when it is an English plural, in the singular: "pages" -> "page",
// "entries" -> "entry"; "status", "class" and "analysis" stay.
func compoundTails(w string) []string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return []string{w, w[:n-3] + "y"}
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		return []string{w, w[:n-1]}
	}
	return []string{w}
}
