package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// ErrLockTimeout is what a bounded write transaction (UpdateWithin) returns
// when it reached its deadline: it was rolled back, at the deadline, and
// nothing it wrote is kept.
var ErrLockTimeout = errors.New("the transaction held the store's write lock past its bound and was rolled back")

// LockTimeoutError is ErrLockTimeout with how long the transaction held the
// lock: from taking it to the rollback that released it.
type LockTimeoutError struct{ Held time.Duration }

func (e *LockTimeoutError) Error() string { return ErrLockTimeout.Error() }

// Is makes errors.Is(err, ErrLockTimeout) true.
func (e *LockTimeoutError) Is(target error) bool { return target == ErrLockTimeout }

// ErrBusy is what a bounded write transaction returns when it could not take
// the write lock within its wait (another process held it throughout).
var ErrBusy = errors.New("the store's write lock was not free within the wait")

// Bounds are how long a bounded write transaction may wait for the write
// lock (busy_timeout) and how long it may hold it once taken.
type Bounds struct {
	Wait time.Duration // 0: the store's busy_timeout
	Hold time.Duration // 0: no bound
}

// UpdateWithin is Update with bounds. The hold bound is real: a watchdog
// rolls the transaction back at its deadline, whatever fn is doing then
// (reading a file, waiting on a slow disk), so the write lock is released
// on time and another process's turn goes on. Every write fn issues after
// that fails with ErrLockTimeout (never autocommits), and so does the
// transaction. A statement already running when the deadline passes ends
// first: the watchdog waits for it, never interrupts SQLite mid-write.
func (s *Store) UpdateWithin(ctx context.Context, b Bounds, fn func(*Tx) error) error {
	return s.transact(ctx, "BEGIN IMMEDIATE", true, b, fn)
}

// txGuard is the watchdog's half of a bounded transaction: mu orders its
// rollback against the transaction's writes and its commit.
type txGuard struct {
	mu       sync.Mutex
	began    time.Time
	held     time.Duration // set when the watchdog released the lock
	deadline time.Time
	timer    *time.Timer
	ended    bool // the transaction is committing or rolling back by itself
	aborted  bool // the watchdog rolled it back
	lost     bool // the watchdog's rollback failed: the connection must go
}

// expire rolls the transaction back at its deadline, unless it already ended.
func (g *txGuard) expire(ss *session, ctx context.Context) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ended || g.aborted {
		return
	}
	g.aborted = true
	if _, err := ss.conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		g.lost = true
	}
	g.held = time.Since(g.began)
}

// Expired reports whether the transaction reached its bound: it was (or is
// about to be) rolled back, and nothing more should be done under it.
func (t *Tx) Expired() bool {
	g := t.guard
	if g == nil {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.aborted || !time.Now().Before(g.deadline)
}

// enter is taken by every write of a bounded transaction.
func (g *txGuard) enter() error {
	g.mu.Lock()
	if g.aborted {
		g.mu.Unlock()
		return ErrLockTimeout
	}
	return nil
}

func (g *txGuard) leave() { g.mu.Unlock() }

// finish ends the watchdog's reach over the transaction and says whether
// the transaction must be reported as past its bound: the watchdog rolled it
// back, or its deadline passed before the timer fired (it is rolled back
// then too, by transact's own ROLLBACK).
func (g *txGuard) finish() (expired bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.timer.Stop()
	g.ended = true
	return g.aborted || !time.Now().Before(g.deadline)
}

// transact runs fn in a transaction begun with begin, within b (see
// UpdateWithin; the zero Bounds bound nothing), committing when commit is
// set and fn returns nil.
func (s *Store) transact(ctx context.Context, begin string, commit bool, b Bounds, fn func(*Tx) error) (err error) {
	ctx = context.WithoutCancel(ctx)
	ss, err := s.acquire(ctx)
	if err != nil {
		return err
	}
	ended := false
	var g *txGuard
	defer func() {
		if !ended { // fn panicked: closing the connection rolls back
			if g != nil {
				g.finish()
			}
			ss.discard()
		}
	}()
	if err := ss.setBusyTimeout(ctx, b.Wait); err != nil {
		ended = true
		ss.discard()
		return err
	}
	if _, err := ss.conn.ExecContext(ctx, begin); err != nil {
		ended = true
		s.release(ss)
		if isBusy(err) {
			return fmt.Errorf("%w: %v", ErrBusy, err)
		}
		return err
	}
	tx := &Tx{ss: ss, s: s, ctx: ctx}
	if b.Hold > 0 {
		now := time.Now()
		g = &txGuard{began: now, deadline: now.Add(b.Hold)}
		g.timer = time.AfterFunc(b.Hold, func() { g.expire(ss, ctx) })
		tx.guard = g
	}
	err = fn(tx)
	if g != nil && g.finish() {
		ended = true
		held := g.held
		switch {
		case g.lost:
			ss.discard()
		case g.aborted:
			s.release(ss) // rolled back by the watchdog
		default:
			if _, rbErr := ss.conn.ExecContext(ctx, "ROLLBACK"); rbErr != nil {
				ss.discard()
			} else {
				s.release(ss)
			}
			held = time.Since(g.began)
		}
		return &LockTimeoutError{Held: held}
	}
	if err == nil && commit {
		if _, err = ss.conn.ExecContext(ctx, "COMMIT"); err == nil {
			ended = true
			s.release(ss)
			return nil
		}
	}
	ended = true
	if _, rbErr := ss.conn.ExecContext(ctx, "ROLLBACK"); rbErr != nil {
		ss.discard()
		return err
	}
	s.release(ss)
	return err
}

// setBusyTimeout makes the session wait d for the write lock (the store's
// busy_timeout when d is 0); a session remembers what it was set to, so a
// turn asks SQLite only when the wait changes.
func (ss *session) setBusyTimeout(ctx context.Context, d time.Duration) error {
	ms := defaultBusyTimeoutMs
	if d > 0 {
		ms = int(d / time.Millisecond)
	}
	if ss.busyMs == ms || (ss.busyMs == 0 && ms == defaultBusyTimeoutMs) {
		return nil
	}
	if _, err := ss.conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", ms)); err != nil {
		return err
	}
	ss.busyMs = ms
	return nil
}

// defaultBusyTimeoutMs is the busy_timeout every connection opens with.
const defaultBusyTimeoutMs = 15000

func isBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}
