package controller

import (
	"context"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/store"
)

// reservationFacts is the collision guard's fact (input.reservation): who
// holds the file this turn writes. Policy decides whether a holder other
// than this agent blocks the write.
type reservationFacts struct {
	Held    bool              `json:"held"`
	Expired bool              `json:"expired"`
	Holder  reservationHolder `json:"holder"`
}

type reservationHolder struct {
	File      string `json:"file"`
	WorkID    string `json:"workId"`
	NodeID    string `json:"nodeId"`
	AgentID   string `json:"agentId"`
	ExpiresAt string `json:"expiresAt"`
}

// reservationOf reads the hold on file, under the turn's transaction, so
// two processes cannot both see it free and both write.
func (c *Controller) reservationOf(ctx context.Context, tx *store.Tx, file string) (reservationFacts, error) {
	r, err := tx.Reservation(ctx, file)
	if err != nil || r == nil {
		return reservationFacts{}, err
	}
	return reservationFacts{
		Held: true, Expired: !c.now().Before(r.ExpiresAt),
		Holder: reservationHolder{File: r.File, WorkID: r.WorkID, NodeID: r.NodeID, AgentID: r.AgentID,
			ExpiresAt: r.ExpiresAt.UTC().Format(time.RFC3339)},
	}, nil
}

// reserve holds file for the agent that just patched nodeID, until the
// node completes or fails (releaseFinished) or the TTL passes.
func (c *Controller) reserve(ctx context.Context, tx *store.Tx, t *turn, file, nodeID string) error {
	return tx.Reserve(ctx, store.Reservation{File: file, WorkID: t.work.ID, NodeID: nodeID, AgentID: t.agent.ID,
		ExpiresAt: c.now().Add(time.Duration(c.cfg.Reservations.TTLSec) * time.Second)})
}

// releaseFinished drops the holds of the work's change nodes that are
// finished: every validation mapped to them passed (complete), or one
// failed (failed; a correction takes the hold again).
func releaseFinished(ctx context.Context, tx *store.Tx, workID string, nodes []store.Node) error {
	var done []string
	for _, n := range nodes {
		if n.Kind != "change" {
			continue
		}
		mapped, passed, failed := 0, 0, 0
		for _, v := range nodes {
			if v.Kind == "validate" && slices.Contains(v.MapsTo, n.NodeID) {
				mapped++
				switch v.Status {
				case statusPassed:
					passed++
				case statusFailed:
					failed++
				}
			}
		}
		if failed > 0 || (mapped > 0 && passed == mapped) {
			done = append(done, n.NodeID)
		}
	}
	return tx.ReleaseNodes(ctx, workID, done...)
}
