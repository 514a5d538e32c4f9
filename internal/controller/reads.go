package controller

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/store"
	"github.com/mcpc/mcpc/schemas"
)

// maxReadBytes bounds one file read by a read verb.
const maxReadBytes = 8 << 20

// readFileLines returns a line range of a pack file and remembers its hash
// for the stale-read check at write time.
func (c *Controller) readFileLines(ctx context.Context, tx *store.Tx, t *turn) error {
	pf := t.in.Paths["targetFile"]
	data, err := c.paths.ReadFile(pf.Canonical, maxReadBytes)
	if err != nil {
		c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("read failed")
		t.fail("io_error", "args.targetFile", "the file could not be read")
		return nil
	}
	hash := sha256Hex(data)
	lines := splitLines(c.readable(pf.Canonical, data, hash, time.Now().Add(readScanBudget)))
	start, end := intArg(t.args, "startLine", 1), intArg(t.args, "endLine", len(lines))
	if end > len(lines) {
		end = len(lines)
	}
	content := ""
	if start <= end {
		content = strings.Join(lines[start-1:end], "\n")
	}
	t.result["targetFile"] = pf.Canonical
	t.result["startLine"] = start
	t.result["endLine"] = end
	t.result["totalLines"] = len(lines)
	t.result["content"] = content
	return tx.RecordRead(ctx, t.work.ID, pf.Canonical, hash)
}

func splitLines(data []byte) []string {
	s := string(data)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return []string{}
	}
	return strings.Split(s, "\n")
}

// maxIntArg caps a positive integer argument. The request schema already
// refuses larger line numbers; this keeps a value that slipped past it from
// overflowing int on conversion (1e19 became a negative slice bound).
const maxIntArg = 1 << 30

func intArg(args map[string]any, name string, def int) int {
	f, ok := args[name].(float64)
	switch {
	case !ok || f < 1:
		return def
	case f > maxIntArg:
		return maxIntArg
	}
	return int(f)
}

// Limits on what one search may cost. RE2 never backtracks, but its time
// grows with the compiled pattern as well as the text (about 15 ns per byte
// per instruction on a small machine): a 1 KB pattern of nested repeats over
// a large pack took minutes. A search runs after the turn's transaction, so
// it never holds the store's lock, and policy refuses a pattern over
// maxPatternInsts (input.search) before it starts.
const (
	// maxPatternInsts refuses regular expressions that compile to more
	// instructions (a literal compiles to about one per character, and is
	// bounded by the schema's length limit instead).
	maxPatternInsts = 500
	// maxLineWork skips a line whose bytes times the pattern's instructions
	// exceed it (about half a second): one match call cannot be stopped.
	maxLineWork = 32 << 20
	// searchTimeLimit ends a search between lines, with what it found.
	searchTimeLimit = 2 * time.Second
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
		t.in.Request.Errors = append(t.in.Request.Errors, schemas.Problem{Path: "args.pattern", Message: err.Error()})
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

// lookupSymbol answers definitions from the index, only within scope.
func (c *Controller) lookupSymbol(t *turn) {
	name, _ := t.args["symbol"].(string)
	scope := t.dec.Obligations.SearchScope
	out := []Symbol{}
	for _, s := range c.index.Symbols(name) {
		if slices.Contains(scope, s.File) {
			out = append(out, s)
		}
	}
	if pf, ok := t.in.Paths["targetFile"]; ok {
		out = slices.DeleteFunc(out, func(s Symbol) bool { return s.File != pf.Canonical })
	}
	t.result["symbol"] = name
	t.result["definitions"] = out
}

// traceSymbolGraph returns a file's or symbol's neighbours within scope.
func (c *Controller) traceSymbolGraph(t *turn) {
	scope := t.dec.Obligations.SearchScope
	var roots []string
	if pf, ok := t.in.Paths["targetFile"]; ok {
		roots = append(roots, pf.Canonical)
	}
	for _, key := range []string{"symbol", "query"} {
		if name, ok := t.args[key].(string); ok {
			for _, s := range c.index.Symbols(name) {
				if slices.Contains(scope, s.File) && !slices.Contains(roots, s.File) {
					roots = append(roots, s.File)
				}
			}
		}
	}
	edges := []Edge{}
	seen := map[Edge]bool{}
	for _, r := range roots {
		for _, e := range c.index.Neighbors(r) {
			if !seen[e] && slices.Contains(scope, e.From) && slices.Contains(scope, e.To) {
				seen[e] = true
				edges = append(edges, e)
			}
		}
	}
	t.result["roots"] = orEmpty(roots)
	t.result["edges"] = edges
}

// writeScratch writes a note under the work's scratch folder only.
func (c *Controller) writeScratch(t *turn) error {
	pf := t.in.Paths["relativePath"]
	content, _ := t.args["content"].(string)
	if err := t.scratch.WriteFileAtomic(pf.Canonical, []byte(content), true); err != nil {
		c.log.Warn().Err(err).Msg("scratch write failed")
		t.fail("io_error", "args.relativePath", "the scratch file could not be written")
		return nil
	}
	t.result["written"] = workDir(t.work.ID) + "/scratch/" + pf.Canonical
	t.result["bytes"] = len(content)
	return nil
}
