package store

import (
	"context"
	"database/sql"
	"errors"
)

// PutDecision stores a decision record ({seq, verb, agentId, at, input,
// result}) in the turn's transaction, so the record is as durable as the
// state change it explains.
func (t *Tx) PutDecision(ctx context.Context, workID string, seq int, denied bool, record []byte) error {
	_, err := t.exec(`INSERT INTO decisions (work_id, seq, denied, record) VALUES (?,?,?,?)`, workID, seq, denied, record)
	return err
}

// Decision returns decision seq of a work; seq 0 means the latest denied one.
func (t *Tx) Decision(ctx context.Context, workID string, seq int) ([]byte, error) {
	var rec []byte
	var err error
	if seq == 0 {
		err = t.queryRow(`SELECT record FROM decisions WHERE work_id = ? AND denied = 1 ORDER BY seq DESC LIMIT 1`, workID).Scan(&rec)
	} else {
		err = t.queryRow(`SELECT record FROM decisions WHERE work_id = ? AND seq = ?`, workID, seq).Scan(&rec)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return rec, err
}

// DecisionSeqs lists the numbers of a work's recorded decisions, in order.
func (t *Tx) DecisionSeqs(ctx context.Context, workID string) ([]int, error) {
	return column[int](t, `SELECT seq FROM decisions WHERE work_id = ? ORDER BY seq`, workID)
}
