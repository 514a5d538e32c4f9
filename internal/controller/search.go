package controller

import (
	"bytes"
	"fmt"
	"regexp"
	"regexp/syntax"
	"time"

	"github.com/mcpc/mcpc/schemas"
)

// searchFacts compiles search_codebase_text's pattern for the first stage:
// an invalid one is a request error, its size a fact policy compares with
// the limit. The compiled pattern is kept for the search itself.
func (c *Controller) searchFacts(t *turn) {
	pattern, _ := t.args["pattern"].(string)
	isRegex, _ := t.args["regex"].(bool)
	caseSensitive, _ := t.args["caseSensitive"].(bool)
	expr := pattern
	if !isRegex {
		expr = regexp.QuoteMeta(pattern)
	}
	if !caseSensitive {
		expr = "(?i)" + expr
	}
	re, insts, cost, err := compileSearch(expr)
	if err != nil {
		t.in.Request.addProblems(schemas.Problem{Path: "args.pattern", Message: err.Error()})
		return
	}
	t.in.Search = searchFacts{Regex: isRegex, Instructions: insts, MaxInstructions: maxPatternInsts}
	t.search, t.searchCost = re, cost
}

// searchText greps the files policy put in scope (the pack, or the pack
// files args.files names), literal by default, RE2 when args.regex is true.
// It runs after the transaction, with its own deadline.
func (c *Controller) searchText(t *turn) {
	re, insts := t.search, t.searchCost
	limit := intArg(t.args, "maxResults", 100)
	type match struct {
		File string `json:"file"`
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	matches := []match{}
	truncated, skipped := false, 0
	deadline := time.Now().Add(searchTimeLimit)
search:
	for _, f := range t.dec.Obligations.SearchScope {
		data, err := c.paths.ReadFile(f, maxReadBytes)
		if err != nil {
			continue
		}
		data = c.readable(f, data, sha256Hex(data), deadline)
		for i, line := range bytes.Split(data, []byte("\n")) {
			if len(line)*insts > maxLineWork {
				skipped++
				continue
			}
			if time.Now().After(deadline) { // every line: one may take up to maxLineWork
				truncated = true
				t.result["stopped"] = fmt.Sprintf("the search ran out of its %s; narrow the pattern or args.files", searchTimeLimit)
				break search
			}
			if !re.Match(line) {
				continue
			}
			if len(matches) >= limit {
				truncated = true
				break search
			}
			text := string(line)
			if len(text) > 400 {
				text = text[:400]
			}
			matches = append(matches, match{File: f, Line: i + 1, Text: text})
		}
	}
	t.result["matches"] = matches
	t.result["truncated"] = truncated
	t.result["filesSearched"] = len(t.dec.Obligations.SearchScope)
	if skipped > 0 {
		t.result["linesSkipped"] = skipped
		t.result["linesSkippedWhy"] = "lines too long to match against this pattern in bounded time; use a smaller pattern"
	}
}

// compileSearch compiles a search expression and says how many instructions
// its program has, and what matching a byte costs (1 for a plain substring).
func compileSearch(expr string) (re *regexp.Regexp, insts, cost int, err error) {
	re, err = regexp.Compile(expr)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("the pattern is not a valid RE2 expression: %w", err)
	}
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, 0, 0, err
	}
	prog, err := syntax.Compile(parsed.Simplify())
	if err != nil {
		return nil, 0, 0, err
	}
	if _, complete := re.LiteralPrefix(); complete {
		return re, len(prog.Inst), 1, nil // a plain substring search: linear in the line alone
	}
	return re, len(prog.Inst), len(prog.Inst), nil
}
