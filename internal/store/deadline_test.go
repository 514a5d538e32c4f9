package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// TestUpdateWithinReleasesTheLockAtItsDeadline: a bounded transaction whose
// work stalls past its bound is rolled back while it still runs, so another
// store on the same file (another process) takes the write lock and
// commits; the stalled transaction's later write fails, nothing it wrote
// is kept, and it reports ErrLockTimeout.
func TestUpdateWithinReleasesTheLockAtItsDeadline(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mcpc.db")
	a, b := openStore(t, path), openStore(t, path)
	other := make(chan error, 1)
	var lateWrite error
	err := a.UpdateWithin(ctx, Bounds{Hold: 100 * time.Millisecond}, func(tx *Tx) error {
		if err := tx.PutWork(ctx, testWork("stalled")); err != nil {
			return err
		}
		// A stall the transaction cannot see (a slow disk, a huge read):
		// it ends only once the other store has committed, which it can
		// only do once the watchdog released the lock.
		go func() {
			other <- b.UpdateWithin(ctx, Bounds{Wait: 30 * time.Second}, func(tx *Tx) error {
				return tx.PutWork(ctx, testWork("other"))
			})
		}()
		if err := <-other; err != nil {
			t.Errorf("the other store could not write while the stalled transaction ran: %v", err)
		}
		if !tx.Expired() {
			t.Error("a transaction rolled back at its bound does not say it expired")
		}
		lateWrite = tx.PutWork(ctx, testWork("late"))
		return lateWrite
	})
	var lt *LockTimeoutError
	if !errors.Is(err, ErrLockTimeout) || !errors.As(err, &lt) || lt.Held <= 0 {
		t.Fatalf("UpdateWithin = %v, want ErrLockTimeout with how long it held the lock", err)
	}
	if !errors.Is(lateWrite, ErrLockTimeout) {
		t.Errorf("a write after the deadline = %v, want ErrLockTimeout", lateWrite)
	}
	for id, want := range map[string]bool{"stalled": false, "late": false, "other": true} {
		if got := hasWork(t, a, id); got != want {
			t.Errorf("work %s stored: %v, want %v", id, got, want)
		}
	}
	// The connection went back to the pool clean: the next transaction works.
	if err := a.UpdateWithin(ctx, Bounds{Hold: time.Minute}, func(tx *Tx) error { return tx.PutWork(ctx, testWork("next")) }); err != nil {
		t.Fatalf("the next bounded transaction: %v", err)
	}
	if !hasWork(t, b, "next") {
		t.Error("the next transaction's write is not stored")
	}
}

// TestUpdateWithinWaitsBoundedForTheLock: a transaction that cannot take
// the write lock within its wait gets ErrBusy, not an endless wait.
func TestUpdateWithinWaitsBoundedForTheLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mcpc.db")
	a, b := openStore(t, path), openStore(t, path)
	held, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- a.Update(ctx, func(tx *Tx) error {
			if err := tx.PutWork(ctx, testWork("holder")); err != nil {
				return err
			}
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	err := b.UpdateWithin(ctx, Bounds{Wait: 50 * time.Millisecond, Hold: time.Second}, func(tx *Tx) error {
		return tx.PutWork(ctx, testWork("waiter"))
	})
	close(release)
	if !errors.Is(err, ErrBusy) {
		t.Errorf("UpdateWithin while another holds the lock = %v, want ErrBusy", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	// The same session, back with its default wait, writes again.
	if err := b.UpdateWithin(ctx, Bounds{}, func(tx *Tx) error { return tx.PutWork(ctx, testWork("after")) }); err != nil {
		t.Fatal(err)
	}
	if hasWork(t, a, "waiter") || !hasWork(t, a, "after") {
		t.Error("the busy transaction wrote, or the next one did not")
	}
}

func openStore(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func testWork(id string) *Work {
	return &Work{ID: id, RunSessionID: "run", State: "PLANNING", Pack: []byte(`{}`), Strategy: []byte(`{}`)}
}

func hasWork(t *testing.T, s *Store, id string) bool {
	t.Helper()
	found := false
	err := s.View(context.Background(), func(tx *Tx) error {
		_, err := tx.Work(context.Background(), id)
		found = err == nil
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
