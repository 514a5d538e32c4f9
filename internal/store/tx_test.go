package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestTransactionsEndCleanly checks how a transaction ends on its
// connection: committed, rolled back on error, rolled back and its
// connection dropped when fn panics, and run to its end when the caller's
// context is already cancelled. After each, the next transaction on the
// store must work and see only what was committed.
func TestTransactionsEndCleanly(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	put := func(id string) func(*Tx) error {
		return func(tx *Tx) error {
			return tx.PutWork(ctx, &Work{ID: id, RunSessionID: "run", State: "PLANNING", Pack: []byte(`{}`), Strategy: []byte(`{}`)})
		}
	}
	exists := func(id string) bool {
		t.Helper()
		var found bool
		err := s.View(ctx, func(tx *Tx) error {
			_, err := tx.Work(ctx, id)
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
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	boom := errors.New("boom")

	for _, tc := range []struct {
		note    string
		id      string // the work the transaction writes
		run     func() error
		wantErr error
		kept    bool
	}{
		{note: "commit", id: "w-commit", run: func() error { return s.Update(ctx, put("w-commit")) }, kept: true},
		{note: "error rolls back", id: "w-error", run: func() error {
			return s.Update(ctx, func(tx *Tx) error {
				if err := put("w-error")(tx); err != nil {
					return err
				}
				return boom
			})
		}, wantErr: boom},
		{note: "panic rolls back", id: "w-panic", run: func() (err error) {
			defer func() {
				if recover() == nil {
					err = errors.New("the panic did not reach the caller")
				}
			}()
			return s.Update(ctx, func(tx *Tx) error {
				if err := put("w-panic")(tx); err != nil {
					return err
				}
				panic("mid-transaction")
			})
		}},
		{note: "cancelled context still runs", id: "w-cancelled", run: func() error { return s.Update(cancelled, put("w-cancelled")) }, kept: true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if err := tc.run(); !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if got := exists(tc.id); got != tc.kept {
				t.Fatalf("%s kept = %v, want %v", tc.id, got, tc.kept)
			}
			// The store is usable and not left inside a transaction.
			if err := s.Update(ctx, func(tx *Tx) error { _, err := tx.NextDecision(ctx, "none"); return err }); err != nil {
				t.Fatal(err)
			}
		})
	}
}
