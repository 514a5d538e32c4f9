package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/retrieval"
)

// A new serving process's first initialize_work walked the tree, then read
// the stored view, then derived ranking's tables and read the git history
// ranking's lanes read, one after the other: at 47,550 files the walk alone
// was 0.25-0.3 s of wall time on which nothing else ran, `git log` another
// 0.1 s of waiting, and a client's handshake (initialize, tools/list)
// before its first turn left both cores idle. Open now starts that work
// (earlyStart): the first refresh on one goroutine; on another the view
// (read back beside the walk, indexer.Open began it) and ranking's tables
// derived from it; and the history. When the walk finds the tree unchanged
// the turn ranks on those very tables; when it finds changes the next view
// is derived as any refresh derives it, and ranking's tables with it (the
// path tables are kept when only contents changed): the early work is then
// spent, never wrong. The history is read as HistoryCache reads it, again
// whenever HEAD moved.

// early is the work Open started for the first turn.
type early struct {
	refreshed chan struct{} // closed when the first refresh ended
	err       error         // its error, once refreshed is closed
	ctx       context.Context
	cancel    context.CancelFunc
	wg        sync.WaitGroup
	graph     *proofChains // whose first sync syncGraph starts; nil: none
}

// earlyStart starts the first refresh of c's index, the derivation of
// ranking's tables from its view and the read of the history the ranking
// of a prompt without ticket keys reads.
func earlyStart(c *codeIndex, log *zerolog.Logger) *early {
	ctx, cancel := context.WithCancel(context.Background())
	e := &early{refreshed: make(chan struct{}), ctx: ctx, cancel: cancel}
	e.wg.Go(func() {
		defer close(e.refreshed)
		_, e.err = c.ix.Refresh(ctx, nil)
		if e.err != nil && !errors.Is(e.err, context.Canceled) && log != nil {
			// The turn's own refresh walks again and reports its error.
			log.Warn().Err(e.err).Msg("the first index refresh, begun at start, failed")
		}
	})
	e.wg.Go(func() { retrieval.Prepare(c.ix) })
	e.wg.Go(func() {
		// A workspace that is no git checkout has no history: ranking
		// reads none either (codeIndex.history), and the turn asks again.
		if _, err := c.commits.Read(ctx, c.root, c.tickets.HistoryNeeded("")); err != nil && log != nil {
			log.Debug().Err(err).Msg("no history read ahead of the first turn")
		}
	})
	return e
}

// syncGraph starts the knowledge graph's first sync once the first
// refresh ended. A new process's first sync reads every group's hash to
// find the graph's stamp (at 47,550 files 40-50 CPU-ms) even when it
// holds; begun here it does so beside the turn's first steps, and the
// sync the turn starts after its own refresh then finds the stamp held in
// memory. That sync is the one the turn waits for, and reports the error
// of, as before.
func (e *early) syncGraph(pc *proofChains) {
	e.graph = pc
	e.wg.Go(func() {
		<-e.refreshed
		if e.ctx.Err() != nil || e.err != nil {
			return // stopping, or the turn's refresh must walk again first
		}
		pc.bg.join(pc.syncOnce) // not waited for: Close stops it (backgroundSync.stop)
	})
}

// wait waits for the first refresh until ctx ends: a cold or large index's
// first refresh may outrun a turn's step, and the turn then ranks from the
// index as it stands, as when its own refresh runs out of time, while the
// refresh goes on.
func (e *early) wait(ctx context.Context) error {
	select {
	case <-e.refreshed:
		return nil // its error, if any, is the turn's own refresh's to find
	case <-ctx.Done():
		return fmt.Errorf("the first index refresh is still running: %w", ctx.Err())
	}
}

// Started returns a channel closed when the work Open began for the first
// turn has walked the tree (at once when Open began none). Upkeep that walks
// the tree too waits for it: at 47,550 files serve's sweep of staged writes
// walking beside the first refresh was a second walk's system calls on
// the cores the first turn waits for.
func (a *App) Started() <-chan struct{} {
	if a.first == nil {
		done := make(chan struct{})
		close(done)
		return done
	}
	return a.first.refreshed
}

// stop cancels the first refresh and waits for the early work to end; the
// caller closes the index and the store after it. A nil e has none.
func (e *early) stop() {
	if e == nil {
		return
	}
	e.cancel()
	e.wg.Wait()
}
