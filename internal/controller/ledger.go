package controller

import (
	"context"
	"errors"
	"io/fs"
	"time"

	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/store"
)

// traceLedger is the seed 004 trace ledger, relative to the worktree.
const traceLedger = ".orchestration/agent_trace.jsonl"

// ledgerLock serialises appends across processes. Appends already run
// inside the store's write transaction; the lock keeps the read of the last
// record and the append one step even for a writer outside it.
const ledgerLock = ".ai/tmp/ledger.lock"

// appendLedger seals rec to the ledger's last record and appends it, then
// records the new head in the store as the anchor `mcpc trace verify`
// checks the file against. Never through a symlink: a repository could
// commit the ledger as a link to a shell start-up file, and the record
// holds agent text.
func (c *Controller) appendLedger(ctx context.Context, tx *store.Tx, rec ledger.Record) error {
	unlock, err := c.paths.Lock(ledgerLock)
	if err != nil {
		return err
	}
	defer unlock()
	head, torn, err := c.ledgerHead()
	if err != nil {
		return err
	}
	line, next, err := ledger.Seal(rec, head)
	if err != nil {
		return err
	}
	if torn {
		// The last write was cut short: the record starts a line of its
		// own, and verify reports the torn one.
		line = append([]byte{'\n'}, line...)
	}
	if err := c.paths.AppendFile(traceLedger, line, true); err != nil {
		return err
	}
	return tx.SetLedgerHead(ctx, traceLedger, next.Seq, next.Hash)
}

// ledgerHead reads the ledger's last record from the end of the file,
// widening the window until it holds a whole line; torn reports a file
// that does not end with a newline.
func (c *Controller) ledgerHead() (head ledger.Head, torn bool, err error) {
	for n := int64(4 << 10); ; n *= 4 {
		tail, err := c.paths.ReadTail(traceLedger, n)
		if errors.Is(err, fs.ErrNotExist) {
			return ledger.Head{Hash: ledger.Genesis}, false, nil
		}
		if err != nil {
			return ledger.Head{}, false, err
		}
		whole := int64(len(tail)) < n // the window reached the file's start
		if !whole && !hasLineStart(tail) {
			if n > 64<<20 {
				return ledger.Head{}, false, errors.New("the trace ledger's last line is over 64 MiB")
			}
			continue
		}
		torn = len(tail) > 0 && tail[len(tail)-1] != '\n'
		head, err = ledger.LastHead(tail)
		return head, torn, err
	}
}

// hasLineStart reports whether tail holds a newline before its last line.
func hasLineStart(tail []byte) bool {
	for i := len(tail) - 2; i >= 0; i-- {
		if tail[i] == '\n' {
			return true
		}
	}
	return false
}

// lineOf reads a diff summary's line number, an int when made in this
// turn and a float64 when read back from a patch intent.
func lineOf(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}

// appendTrace appends the seed 004 trace ledger record of a successful
// mutation, chained to the record before it (see appendLedger); fail-safe:
// a ledger failure is logged, never undoes the write.
func (c *Controller) appendTrace(ctx context.Context, tx *store.Tx, t *turn, file, contentHash string, summary map[string]any) {
	start, end := lineOf(summary["startLine"]), lineOf(summary["endLine"])
	node, _ := t.args["planNodeId"].(string)
	intentID, class := t.intent.ID, t.intent.MutationClass
	if intentID == "" {
		intentID = t.work.ID // no active_intents.yaml: the work is the intent
	}
	if class == "" {
		class = ledger.Unknown
	}
	rec := ledger.Record{
		ID: ledger.NewID(), Timestamp: c.now().UTC().Format(time.RFC3339Nano),
		IntentID: intentID, MutationClass: class, WorkID: t.work.ID,
		VCS: ledger.VCS{RevisionID: t.gitRev},
		Files: []ledger.File{{RelativePath: file, Conversations: []ledger.Conversation{{
			URL:         t.work.ID,
			Contributor: ledger.Contributor{EntityType: "AI", ModelIdentifier: t.agent.ID},
			Ranges:      []ledger.Range{{StartLine: start, EndLine: end, ContentHash: contentHash}},
			Related:     []ledger.Related{{Type: "plan_node", Value: node}},
		}}}},
	}
	if err := c.appendLedger(ctx, tx, rec); err != nil {
		c.log.Warn().Err(err).Msg("trace ledger append failed")
	}
}
