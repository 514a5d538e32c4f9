package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Reservation is the collision guard's hold on a file: the first agent to
// patch a change node holds the node's files until the node completes or
// fails, or until ExpiresAt.
type Reservation struct {
	File      string    `json:"file"`
	WorkID    string    `json:"workId"`
	NodeID    string    `json:"nodeId"`
	AgentID   string    `json:"agentId"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// Reservation returns the hold on file, or nil when there is none
// (expired holds are returned: whether one still counts is policy's call).
func (t *Tx) Reservation(ctx context.Context, file string) (*Reservation, error) {
	r := Reservation{File: file}
	var exp string
	err := t.queryRow(`SELECT work_id, node_id, agent_id, expires_at FROM reservations WHERE file = ?`, file).
		Scan(&r.WorkID, &r.NodeID, &r.AgentID, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if r.ExpiresAt, err = time.Parse(time.RFC3339Nano, exp); err != nil {
		return nil, err
	}
	return &r, nil
}

// Reserve takes or renews the hold on r.File for r's agent and node.
func (t *Tx) Reserve(ctx context.Context, r Reservation) error {
	_, err := t.exec(`INSERT INTO reservations (file, work_id, node_id, agent_id, expires_at) VALUES (?,?,?,?,?)
ON CONFLICT(file) DO UPDATE SET work_id=excluded.work_id, node_id=excluded.node_id, agent_id=excluded.agent_id, expires_at=excluded.expires_at`,
		r.File, r.WorkID, r.NodeID, r.AgentID, r.ExpiresAt.UTC().Format(time.RFC3339Nano))
	return err
}

// ReleaseNodes drops the holds of a work's nodes (they completed or failed).
func (t *Tx) ReleaseNodes(ctx context.Context, workID string, nodeIDs ...string) error {
	for _, id := range nodeIDs {
		if _, err := t.exec(`DELETE FROM reservations WHERE work_id = ? AND node_id = ?`, workID, id); err != nil {
			return err
		}
	}
	return nil
}

// ReleaseWork drops every hold of a work (it completed).
func (t *Tx) ReleaseWork(ctx context.Context, workID string) error {
	_, err := t.exec(`DELETE FROM reservations WHERE work_id = ?`, workID)
	return err
}
