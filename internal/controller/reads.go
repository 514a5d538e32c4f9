package controller

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/store"
)

// maxReadBytes bounds one file read by a read verb.
const maxReadBytes = 8 << 20

// fileRead is a pack file's content as a read verb returns it: read,
// hashed and scanned for secrets (readable) once, with the stamp of the
// content it was read from.
type fileRead struct {
	file  string
	stamp pathscope.Stamp
	hash  string
	lines []string
}

// readAhead reads read_file_lines' target before the turn's transaction,
// when it is a file of the work's pack: reading, hashing and scanning up to
// maxReadBytes is the whole cost of a read, and none of it needs the lock.
// Only pack files are read (a file the agent may not read is never opened
// before policy allowed it, so its existence cannot show in the turn's
// time). The pack is the work's view this process last saw, or one read
// from a snapshot: a pack only grows, so a file in an older view is in the
// pack now. The transaction uses the read when the file's stamp is still
// the one it was read with (readFileLines).
func (c *Controller) readAhead(ctx context.Context, t *turn) error {
	s, ok := t.args["targetFile"].(string)
	if !ok || t.req.WorkID == "" {
		return nil
	}
	f := c.paths.Lexical(s)
	if !f.Valid {
		return nil
	}
	files, err := c.knownPackFiles(ctx, t.req.WorkID)
	if err != nil || !slices.Contains(files, f.Canonical) {
		return err
	}
	data, stamp, err := c.paths.ReadFileStamped(f.Canonical, maxReadBytes)
	if err != nil || !stamp.Known() {
		return nil // read again under the lock, where a failure is judged
	}
	t.readAhead = c.fileReadOf(f.Canonical, data, stamp, time.Now().Add(readAheadScanBudget))
	return nil
}

// fileReadOf hashes and scans data, read from file with stamp.
func (c *Controller) fileReadOf(file string, data []byte, stamp pathscope.Stamp, scanUntil time.Time) *fileRead {
	hash := sha256Hex(data)
	return &fileRead{file: file, stamp: stamp, hash: hash, lines: splitLines(c.readable(file, data, hash, scanUntil))}
}

// knownPackFiles are the files of a work's pack as this process last saw
// them, or as a read snapshot has them (nil for no such work).
func (c *Controller) knownPackFiles(ctx context.Context, workID string) ([]string, error) {
	c.views.mu.Lock()
	v := c.views.views[workID]
	c.views.mu.Unlock()
	if v != nil {
		return v.pack.Files, nil
	}
	var files []string
	err := c.store.View(ctx, func(tx *store.Tx) error {
		w, err := tx.Work(ctx, workID)
		if err == nil {
			files = c.viewOf(w).pack.Files
		}
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	return files, err
}

// readFileLines returns a line range of a pack file and remembers its hash
// for the stale-read check at write time. Under the lock it only checks
// the read made ahead (readAhead) is of the file as it is now, by its
// stamp; a file read ahead that changed since, or not read ahead, is read
// here, its scan bounded by readScanBudget.
func (c *Controller) readFileLines(ctx context.Context, tx *store.Tx, t *turn) error {
	pf := t.in.Paths["targetFile"]
	r := t.readAhead
	if r != nil && (r.file != pf.Canonical || !c.unchanged(pf.Canonical, r.stamp)) {
		r = nil
	}
	if r == nil {
		data, err := c.paths.ReadFile(pf.Canonical, maxReadBytes)
		if err != nil {
			c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("read failed")
			t.fail("io_error", "args.targetFile", "the file could not be read")
			return nil
		}
		r = c.fileReadOf(pf.Canonical, data, pathscope.Stamp{}, time.Now().Add(readScanBudget))
	}
	lines := r.lines
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
	return tx.RecordRead(ctx, t.work.ID, pf.Canonical, r.hash)
}

// unchanged reports whether the file still has the content stamp was taken
// of: one stat, whatever its size.
func (c *Controller) unchanged(file string, stamp pathscope.Stamp) bool {
	now, err := c.paths.StatStamp(file)
	return err == nil && stamp.Known() && now == stamp
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
