package store

import "context"

// ApproveGate records a person's approval of a work's commit gate.
func (t *Tx) ApproveGate(ctx context.Context, workID, gateID, by, note string) error {
	_, err := t.exec(`INSERT INTO gates (work_id, gate_id, approved_by, note, at) VALUES (?,?,?,?,?)
ON CONFLICT(work_id, gate_id) DO UPDATE SET approved_by=excluded.approved_by, note=excluded.note, at=excluded.at`,
		workID, gateID, by, note, now())
	return err
}

// ApprovedGates lists a work's approved commit gates (never nil).
func (t *Tx) ApprovedGates(ctx context.Context, workID string) ([]string, error) {
	gates, err := column[string](t, `SELECT gate_id FROM gates WHERE work_id = ? ORDER BY gate_id`, workID)
	if gates == nil && err == nil {
		gates = []string{}
	}
	return gates, err
}

// ClearGates forgets a work's approvals: a person approved a gate of the
// plan they saw, and a new plan may put it on other changes.
func (t *Tx) ClearGates(ctx context.Context, workID string) error {
	_, err := t.exec(`DELETE FROM gates WHERE work_id = ?`, workID)
	return err
}
