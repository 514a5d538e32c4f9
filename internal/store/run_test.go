package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestRuns: a run's outcome lands only while the node is still in that run;
// a database made before nodes had runs (or works a revision) gets the
// columns when opened.
func TestRuns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "mcpc.db")
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`CREATE TABLE works (id TEXT PRIMARY KEY, run_session_id TEXT NOT NULL, state TEXT NOT NULL, prompt TEXT NOT NULL,
			lexemes TEXT NOT NULL, pack TEXT NOT NULL, plan TEXT NOT NULL DEFAULT '', strategy TEXT NOT NULL,
			repo_snapshot TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL)`,
		`CREATE TABLE nodes (work_id TEXT NOT NULL REFERENCES works(id), node_id TEXT NOT NULL, ord INTEGER NOT NULL,
			kind TEXT NOT NULL, status TEXT NOT NULL, target_file TEXT NOT NULL DEFAULT '', maps_to TEXT NOT NULL DEFAULT '[]',
			body TEXT NOT NULL, updated_at TEXT NOT NULL, PRIMARY KEY (work_id, node_id))`,
	} {
		if _, err := old.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	old.Close()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	update := func(fn func(*Tx) error) {
		t.Helper()
		if err := s.Update(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	update(func(tx *Tx) error {
		if err := tx.PutWork(ctx, &Work{ID: "w", RunSessionID: "r", State: "PLAN_ACCEPTED", Pack: []byte(`{}`), Strategy: []byte(`{}`)}); err != nil {
			return err
		}
		return tx.ReplaceNodes(ctx, "w", []Node{{NodeID: "v", Kind: "validate", Status: "pending", Body: []byte(`{}`)}})
	})
	finish := func(run, status string) bool {
		t.Helper()
		var recorded bool
		update(func(tx *Tx) error {
			var err error
			recorded, err = tx.FinishRun(ctx, "w", "v", run, status)
			return err
		})
		return recorded
	}
	status := func() string {
		t.Helper()
		var nodes []Node
		update(func(tx *Tx) error {
			var err error
			nodes, err = tx.Nodes(ctx, "w", false)
			return err
		})
		return nodes[0].Status
	}
	update(func(tx *Tx) error { return tx.StartRun(ctx, "w", "v", "running", "run-1") })
	update(func(tx *Tx) error { return tx.StartRun(ctx, "w", "v", "running", "run-2") })
	if finish("run-1", "passed") || status() != "running" {
		t.Fatalf("a superseded run recorded its outcome: node %s", status())
	}
	if !finish("run-2", "failed") || status() != "failed" {
		t.Fatalf("the latest run did not record its outcome: node %s", status())
	}
	if finish("run-2", "passed") {
		t.Fatal("a run recorded its outcome twice")
	}
	update(func(tx *Tx) error { return tx.StartRun(ctx, "w", "v", "running", "run-3") })
	update(func(tx *Tx) error { return tx.SetNodeStatus(ctx, "w", "v", "pending") }) // a new patch
	if finish("run-3", "passed") || status() != "pending" {
		t.Fatalf("a run ended by a status change recorded its outcome: node %s", status())
	}
}
