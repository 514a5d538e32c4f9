package e2e

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/store"
)

// TestCancelledTurns: a client that cancels turns in flight (its SDK sends
// notifications/cancelled) gets no decision recorded that the policy did
// not make: every turn that starts runs to its end under its real decision.
func TestCancelledTurns(t *testing.T) {
	ws := newWorkspace(t)
	roomyBudget(t, ws)
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert")
	read := map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 2}
	req := map[string]any{"verb": "read_file_lines", "workId": a.work, "agentId": a.id, "args": read}
	for i := range 200 {
		// Cancelled from before the request is sent to after it is answered.
		ctx, cancel := context.WithTimeout(t.Context(), time.Duration(i%25)*60*time.Microsecond)
		_, _ = a.c.Turn(ctx, req)
		cancel()
	}
	if r := a.turn("read_file_lines", read); len(r.Denials) > 0 {
		t.Fatalf("a read after the cancellations was denied: %v", r.DenyReasons)
	}
	st, err := store.Open(filepath.Join(ws, ".ai", "tmp", "mcpc.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.View(t.Context(), func(tx *store.Tx) error {
		rec, err := tx.Decision(t.Context(), a.work, 0) // the latest denied decision
		if err == nil {
			t.Errorf("a cancelled read was recorded as denied: %s", rec)
		}
		if errors.Is(err, store.ErrNotFound) {
			return nil
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
