package store

import (
	"context"
	"path/filepath"
	"testing"
)

// TestCachesFollowOtherProcesses opens the database twice, as two mcpc
// processes would, and checks that what one caches is never served after
// the other has changed the work.
func TestCachesFollowOtherProcesses(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mcpc.db")
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	update := func(s *Store, fn func(*Tx) error) {
		t.Helper()
		if err := s.Update(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	w := &Work{ID: "work-1", RunSessionID: "run-1", State: "PLANNING", Prompt: "p", Pack: []byte(`{}`), Strategy: []byte(`{}`)}
	update(a, func(tx *Tx) error { return tx.PutWork(ctx, w) })
	update(a, func(tx *Tx) error {
		return tx.ReplaceNodes(ctx, "work-1", []Node{{NodeID: "n1", Kind: "change", Status: "pending", Body: []byte(`{}`)}})
	})
	load := func(s *Store) (*Work, []Node) {
		t.Helper()
		var w *Work
		var nodes []Node
		update(s, func(tx *Tx) error {
			var err error
			if w, err = tx.Work(ctx, "work-1"); err != nil {
				return err
			}
			nodes, err = tx.Nodes(ctx, "work-1", false)
			return err
		})
		return w, nodes
	}
	w1, n1 := load(a) // now cached in a
	if w1.State != "PLANNING" || n1[0].Status != "pending" {
		t.Fatalf("first load: %s %s", w1.State, n1[0].Status)
	}
	w1.State = "CHANGED IN A COPY" // callers own their copy
	n1[0].Status = "changed in a copy"
	if w, n := load(a); w.State != "PLANNING" || n[0].Status != "pending" {
		t.Fatalf("a caller's copy leaked into the cache: %s %s", w.State, n[0].Status)
	}

	update(b, func(tx *Tx) error {
		w, err := tx.Work(ctx, "work-1")
		if err != nil {
			return err
		}
		w.State = "PLAN_ACCEPTED"
		if err := tx.PutWork(ctx, w); err != nil {
			return err
		}
		return tx.SetNodeStatus(ctx, "work-1", "n1", "passed")
	})
	if w, n := load(a); w.State != "PLAN_ACCEPTED" || n[0].Status != "passed" {
		t.Fatalf("a served its cache after b's write: %s %s", w.State, n[0].Status)
	}

	// A rolled-back write must not be cached under the revision it took.
	_ = a.Update(ctx, func(tx *Tx) error {
		w, _ := tx.Work(ctx, "work-1")
		w.State = "ROLLED_BACK"
		_ = tx.PutWork(ctx, w)
		return context.Canceled
	})
	if w, _ := load(a); w.State != "PLAN_ACCEPTED" {
		t.Fatalf("a rolled-back write was served: %s", w.State)
	}

	// A transaction reuses the revision it read, but never past its own
	// write: nodes listed after a status change in the same turn are new.
	update(a, func(tx *Tx) error {
		if _, err := tx.Work(ctx, "work-1"); err != nil {
			return err
		}
		if _, err := tx.Nodes(ctx, "work-1", false); err != nil {
			return err
		}
		if err := tx.SetNodeStatus(ctx, "work-1", "n1", "failed"); err != nil {
			return err
		}
		n, err := tx.Nodes(ctx, "work-1", false)
		if err == nil && n[0].Status != "failed" {
			t.Errorf("nodes after a write in the same transaction: %s, want failed", n[0].Status)
		}
		return err
	})
}

func TestNextDecisionCountsFromTheRecords(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := &Work{ID: "work-1", Pack: []byte(`{}`), Strategy: []byte(`{}`)}
	for want := 1; want <= 3; want++ {
		err := s.Update(ctx, func(tx *Tx) error {
			if want == 1 {
				if err := tx.PutWork(ctx, w); err != nil {
					return err
				}
			}
			n, err := tx.NextDecision(ctx, "work-1")
			if err != nil {
				return err
			}
			if n != want {
				t.Fatalf("next decision %d, want %d", n, want)
			}
			return tx.PutDecision(ctx, "work-1", n, false, []byte(`{}`))
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestCheckpointLeavesNothingInTheLog: SQLite's own checkpoint waits for a
// long burst, and Checkpoint (run in pauses) copies the whole log.
func TestCheckpointLeavesNothingInTheLog(t *testing.T) {
	ctx := context.Background()
	s, err := Open(filepath.Join(t.TempDir(), "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var pages int
	if err := s.DB().QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&pages); err != nil || pages != walAutoCheckpointPages {
		t.Fatalf("wal_autocheckpoint %d (%v), want %d", pages, err, walAutoCheckpointPages)
	}
	w := &Work{ID: "work-1", Pack: []byte(`{}`), Strategy: []byte(`{}`)}
	for i := 1; i <= 20; i++ {
		if err := s.Update(ctx, func(tx *Tx) error {
			if i == 1 {
				if err := tx.PutWork(ctx, w); err != nil {
					return err
				}
			}
			return tx.PutDecision(ctx, "work-1", i, false, []byte(`{"x":1}`))
		}); err != nil {
			t.Fatal(err)
		}
	}
	logged, copied, err := s.Checkpoint(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if logged == 0 || copied != logged {
		t.Errorf("Checkpoint copied %d of the log's %d pages", copied, logged)
	}
}
