package controller

import (
	"context"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/store"
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
