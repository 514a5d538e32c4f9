package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mcpc/mcpc/internal/store"
)

// A turn holds the store's write lock for at most store.lockTimeoutMs and
// waits for it at most store.busyTimeoutMs (store.UpdateWithin). A turn
// still under the lock at its bound is rolled back by the store's watchdog
// at that moment, whatever it is doing, so another process's turn goes on;
// what the turn wrote outside the store before then is undone, and the turn
// is answered and recorded as a denial of mcpc.rules.execution["lock-timeout"]
// (LOCK_TIMEOUT), from the fact of the stage that overran. A turn that
// never got the lock is denied by ["store-busy"] (STORE_BUSY).

// Parts of a turn under the lock, besides the request and verb stages:
// the lock_timeout fact names the one that was running at the bound.
const (
	lockLoad    = "load"
	lockExecute = "execute"
	lockRecord  = "record"
)

// lockBounds are the turn transaction's bounds from the configuration.
func (c *Controller) lockBounds() store.Bounds {
	return store.Bounds{Wait: c.cfg.BusyTimeout(), Hold: c.cfg.LockTimeout()}
}

// underLock names the part of the turn about to run under the lock, or
// stops the turn when its transaction already reached its bound: nothing
// more is done (no file written) once the lock may be another's. A
// failpoint build can make each part slow (MCPC_FAILPOINT=lock:<part>).
func (t *turn) underLock(tx *store.Tx, part string) error {
	if tx.Expired() {
		return store.ErrLockTimeout
	}
	t.lockStage = part
	failpointSleep("lock:" + part)
	return nil
}

// onAbort registers how to undo, outside the store, what the turn did
// under the lock (a patched file), should its transaction be rolled back.
func (t *turn) onAbort(undo func()) { t.aborts = append(t.aborts, undo) }

// failWith records an execution failure with its facts (stages.go's fail
// for the common case).
func (t *turn) failWith(f executionFailure) {
	t.in.Execution.Failures = append(t.in.Execution.Failures, f)
}

// settleLockError answers a turn whose transaction ended in a lock bound:
// a structured, recorded denial rather than a protocol error. Other errors
// are the store's own faults and are returned.
func (c *Controller) settleLockError(ctx context.Context, t *turn, err error) error {
	switch {
	case errors.Is(err, store.ErrLockTimeout):
		held := c.cfg.LockTimeout()
		if lt := (*store.LockTimeoutError)(nil); errors.As(err, &lt) {
			held = lt.Held
		}
		c.lockOverran(ctx, t, held)
		return nil
	case errors.Is(err, store.ErrBusy):
		return c.storeBusy(ctx, t)
	}
	return err
}

// lockOverran answers a turn the watchdog rolled back: nothing it wrote to
// the store is kept, what it wrote outside is undone, and the denial is
// decided by policy and recorded in a transaction of its own.
func (c *Controller) lockOverran(ctx context.Context, t *turn, held time.Duration) {
	ctx = context.WithoutCancel(ctx)
	c.log.Warn().Dur("ranFor", t.lockHeld).Str("verb", t.req.Verb).Str("stage", t.lockStage).
		Msg("a turn reached store.lockTimeoutMs under the lock and was rolled back")
	t.lockHeld = held // the store released the lock then; the turn ran on without it
	for i := len(t.aborts) - 1; i >= 0; i-- {
		t.aborts[i]()
	}
	t.aborts, t.afterTx, t.record, t.pack, t.seq = nil, nil, nil, nil, 0
	t.result = map[string]any{}
	// Whatever else executing found was rolled back with it.
	t.in.Execution.Failures = t.in.Execution.Failures[:0]
	t.failWith(executionFailure{Reason: "lock_timeout", Stage: t.lockStage, LimitMs: c.cfg.Store.LockTimeoutMs,
		Message: fmt.Sprintf("the turn was still in its %s stage when it reached the bound", t.lockStage)})
	c.decideExecution(ctx, t)
	c.recordDenial(ctx, t, true)
}

// storeBusy answers a turn that never took the lock: another process held
// it for all of store.busyTimeoutMs. The work is read from a snapshot (WAL
// readers do not wait for the writer), and the denial, which cannot be
// recorded without the lock, is kept pending (pending.go) and recorded,
// with the turn's charge, by a short later transaction.
func (c *Controller) storeBusy(ctx context.Context, t *turn) error {
	c.log.Warn().Dur("waited", c.cfg.BusyTimeout()).Str("verb", t.req.Verb).Msg("the store's write lock was not free within store.busyTimeoutMs")
	err := c.store.View(ctx, func(tx *store.Tx) error {
		if err := c.load(ctx, tx, t); err != nil {
			return err
		}
		return c.gatherFirst(ctx, tx, t)
	})
	if err != nil {
		return err
	}
	t.failWith(executionFailure{Reason: "store_busy", LimitMs: c.cfg.Store.BusyTimeoutMs,
		Message: "another turn held the store's write lock for the whole wait"})
	c.decideExecution(ctx, t)
	ref, err := c.keepPending(ctx, c.pendingOf(ctx, t, true))
	if err != nil {
		c.log.Error().Err(err).Str("verb", t.req.Verb).Msg("the STORE_BUSY denial could not be kept to record")
		c.budget.giveBack(c.budget.session(ctx), t) // charged by the next turn instead
		return nil
	}
	// The answer says what the turn owes, as recording it will charge it.
	t.pendingRef = ref
	if t.work != nil {
		t.agent.UsedTokens += t.charge()
	}
	if s := t.budget.session; s != nil {
		s.UsedTokens += t.charge()
	}
	return nil
}

// decideExecution evaluates the turn's last query again with its execution
// facts: the first stage's when no stage ran yet.
func (c *Controller) decideExecution(ctx context.Context, t *turn) {
	query := queryStage1
	if len(t.stages) > 0 {
		query = t.stages[len(t.stages)-1].Query
	}
	if t.in.Stage == "" {
		t.in.Stage = stageRequest
	}
	c.decide(ctx, t, stageExecution, query)
}

// recordDenial records the turn's decision as a decision of its own, in a
// bounded transaction of its own. With reload the turn's own transaction
// was rolled back: the work and its plan are read again first (what the
// turn held in memory, a work initialize_work minted, node statuses, is
// not the store's), and the turn is charged to its agent and its MCP
// session here, as its own transaction would have. A lock not free for
// this transaction either leaves the decision pending (pending.go).
func (c *Controller) recordDenial(ctx context.Context, t *turn, reload bool) {
	if reload && t.req.WorkID == "" {
		t.work, t.nodes = nil, nil // initialize_work's work was never stored
	}
	if !reload && t.work == nil {
		return // turns without a work are not recorded
	}
	p := c.pendingOf(ctx, t, reload)
	var r recorded
	err := c.store.UpdateWithin(ctx, c.lockBounds(), func(tx *store.Tx) error {
		if reload && t.work != nil {
			w, err := tx.Work(ctx, t.req.WorkID)
			if err != nil {
				return err
			}
			if t.nodes, err = tx.Nodes(ctx, w.ID, false); err != nil {
				return err
			}
			t.work = w
		}
		var err error
		r, err = c.recordPending(ctx, tx, p)
		return err
	})
	if lockUnavailable(err) {
		if t.pendingRef, err = c.keepPending(ctx, p); err == nil {
			return
		}
	}
	if err != nil {
		c.log.Error().Err(err).Str("verb", t.req.Verb).Msg("the denial could not be recorded")
		return
	}
	if r.agent != nil {
		t.agent = r.agent
	}
	if r.session != nil {
		t.budget.session = r.session
	}
	if r.record != nil {
		t.seq = r.seq
		c.records.write(c.recordPath(t.work.ID, t.seq), r.record)
	}
}

// undoPatch puts a patched file back as it was, when it still holds what
// the patch wrote, and drops the patch's intent: its turn was rolled back,
// so the store never knew of it.
func (c *Controller) undoPatch(pf pathFacts, before []byte, in patchIntent) {
	defer c.dropIntent(in)
	if h, err := c.paths.HashFile(pf.Canonical); err != nil || h != in.After {
		return // written again since, or gone: not this patch's to undo
	}
	var err error
	if pf.Exists {
		err = c.paths.WriteFileAtomic(pf.Canonical, before, false)
	} else {
		err = c.paths.Remove(pf.Canonical)
	}
	if err != nil {
		c.log.Error().Err(err).Str("file", pf.Canonical).Msg("a patch rolled back at the lock bound could not be undone")
	}
}

// packRead is escalate's pack document, read (from the store's copy, and
// decoded) outside the lock, with the works-table summary it was read for.
type packRead struct {
	stored json.RawMessage
	doc    *packDoc
}

// prefetchPack reads the pack document of the work pv loaded, outside the
// lock. A document that cannot be read is read again under the lock, where
// the failure is judged.
func (c *Controller) prefetchPack(ctx context.Context, t, pv *turn) {
	if pv.work == nil {
		return
	}
	var sum packSummary
	if json.Unmarshal(pv.work.Pack, &sum) != nil {
		return
	}
	_ = c.store.View(ctx, func(tx *store.Tx) error {
		p, err := c.committedPack(ctx, tx, pv.work.ID, sum)
		if err == nil {
			t.packRead = &packRead{stored: pv.work.Pack, doc: p}
		}
		return nil // read again under the lock, which judges a failure
	})
}

// packOf is the work's pack document as committed: the one read outside
// the lock when the work's pack is still the one it was read for, else
// read now (another escalate committed since).
func (c *Controller) packOf(ctx context.Context, tx *store.Tx, t *turn, sum packSummary) (*packDoc, error) {
	if r := t.packRead; r != nil && bytes.Equal(r.stored, t.work.Pack) {
		return r.doc, nil
	}
	return c.committedPack(ctx, tx, t.work.ID, sum)
}
