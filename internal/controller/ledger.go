package controller

import (
	"context"
	"time"

	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/store"
)

// traceLedger is the seed 004 trace ledger, relative to the worktree.
const traceLedger = ledger.Path

// appendLedger seals rec to the ledger's last record and appends it
// (ledger.Append, under the ledger's lock), then records the new head in
// the store as the anchor `mcpc trace verify` checks the file against.
// Appends run inside the store's write transaction; `mcpc hook` processes
// append in the same order (store, then the ledger's lock).
func (c *Controller) appendLedger(ctx context.Context, tx *store.Tx, rec ledger.Record) error {
	next, err := ledger.Append(c.paths, rec)
	if err != nil {
		return err
	}
	return tx.SetLedgerHead(ctx, traceLedger, next.Seq, next.Hash)
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
