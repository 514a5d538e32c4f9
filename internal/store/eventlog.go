package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// eventSchema is the events table. It is the table the execution guards'
// recipe_usage events go to (work_id, kind, agent_id, node_id, body, at),
// with the columns observability adds; observed=1 marks the rows the
// observability pipeline wrote, the only ones pruned to observe.maxEvents
// (a recipe_usage row is a work's history and is never pruned).
const eventSchema = `
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  work_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  body TEXT NOT NULL,
  at TEXT NOT NULL
);
`

// eventColumns are added to an events table made before observability.
var eventColumns = []struct{ column, decl string }{
	{"observed", "INTEGER NOT NULL DEFAULT 0"},
	{"verb", "TEXT NOT NULL DEFAULT ''"},
	{"seq", "INTEGER NOT NULL DEFAULT 0"},
	{"denied", "INTEGER NOT NULL DEFAULT 0"},
	{"codes", "TEXT NOT NULL DEFAULT ''"},   // space-separated deny codes
	{"anchors", "TEXT NOT NULL DEFAULT ''"}, // space-separated domain anchors
	{"strategy", "TEXT NOT NULL DEFAULT ''"},
	{"duration_us", "INTEGER NOT NULL DEFAULT 0"},
	{"tokens", "INTEGER NOT NULL DEFAULT 0"},
}

// migrateEvents creates the events table and adds what it lacks.
func (s *Store) migrateEvents(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, eventSchema); err != nil {
		return err
	}
	for _, col := range eventColumns {
		if _, err := s.db.ExecContext(ctx, `SELECT `+col.column+` FROM events LIMIT 0`); err != nil {
			if _, err := s.db.ExecContext(ctx, `ALTER TABLE events ADD COLUMN `+col.column+` `+col.decl); err != nil {
				return err
			}
		}
	}
	_, err := s.db.ExecContext(ctx, `CREATE INDEX IF NOT EXISTS events_work ON events(work_id, id)`)
	return err
}

// ObservedEvent is one row of the events table as observability reads and
// writes it. Body is JSON.
type ObservedEvent struct {
	ID         int64           `json:"id"`
	At         string          `json:"at"`
	Kind       string          `json:"kind"`
	WorkID     string          `json:"workId"`
	AgentID    string          `json:"agentId"`
	NodeID     string          `json:"nodeId,omitempty"`
	Verb       string          `json:"verb,omitempty"`
	Seq        int             `json:"seq,omitempty"`
	Denied     bool            `json:"denied"`
	Codes      []string        `json:"codes"`
	Anchors    []string        `json:"anchors"`
	Strategy   string          `json:"strategy,omitempty"`
	DurationUS int64           `json:"durationUs"`
	Tokens     int             `json:"tokens"`
	Body       json.RawMessage `json:"body,omitempty"`
}

// AppendEvents inserts a batch of observed events in one transaction of its
// own (never a turn's), then deletes the oldest observed rows beyond keep
// (0: keep all). It returns how many rows it pruned.
func (s *Store) AppendEvents(ctx context.Context, events []ObservedEvent, keep int) (pruned int64, err error) {
	err = RetryBusy(ctx, func() error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		st, err := tx.PrepareContext(ctx, `INSERT INTO events (work_id, kind, agent_id, node_id, body, at, observed, verb, seq, denied, codes, anchors, strategy, duration_us, tokens)
VALUES (?,?,?,?,?,?,1,?,?,?,?,?,?,?,?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for _, e := range events {
			body := string(e.Body)
			if body == "" {
				body = "{}"
			}
			if _, err := st.ExecContext(ctx, e.WorkID, e.Kind, e.AgentID, e.NodeID, body, e.At, e.Verb, e.Seq, e.Denied,
				strings.Join(e.Codes, " "), strings.Join(e.Anchors, " "), e.Strategy, e.DurationUS, e.Tokens); err != nil {
				return err
			}
		}
		pruned = 0
		if keep > 0 {
			// Rows above the newest id minus keep stay: MAX(id) is one
			// lookup and the delete a primary-key range holding only what
			// goes, so pruning costs the same at any size. Unobserved rows
			// (recipe_usage) in that range count against keep but stay.
			res, err := tx.ExecContext(ctx, `DELETE FROM events WHERE observed = 1 AND id <= (SELECT MAX(id) FROM events) - ?`, keep)
			if err != nil {
				return err
			}
			pruned, _ = res.RowsAffected()
		}
		return tx.Commit()
	})
	return pruned, err
}

// EventFilter selects events for ListEvents.
type EventFilter struct {
	AfterID    int64  // only ids above this
	WorkID     string // "" any
	Kind       string // "" any
	DeniedOnly bool
	Seq        int // 0 any
	Limit      int // default 200
	Newest     bool
}

const eventCols = `id, at, kind, work_id, agent_id, node_id, verb, seq, denied, codes, anchors, strategy, duration_us, tokens, body`

// ListEvents reads events oldest first (newest first with Newest).
func (s *Store) ListEvents(ctx context.Context, f EventFilter) ([]ObservedEvent, error) {
	var where []string
	var args []any
	where = append(where, "id > ?")
	args = append(args, f.AfterID)
	if f.WorkID != "" {
		where, args = append(where, "work_id = ?"), append(args, f.WorkID)
	}
	if f.Kind != "" {
		where, args = append(where, "kind = ?"), append(args, f.Kind)
	}
	if f.Seq > 0 {
		where, args = append(where, "seq = ?"), append(args, f.Seq)
	}
	if f.DeniedOnly {
		where = append(where, "denied = 1")
	}
	if f.Limit <= 0 {
		f.Limit = 200
	}
	order := "ASC"
	if f.Newest {
		order = "DESC"
	}
	q := fmt.Sprintf(`SELECT %s FROM events WHERE %s ORDER BY id %s LIMIT %d`, eventCols, strings.Join(where, " AND "), order, f.Limit)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []ObservedEvent{}
	for rows.Next() {
		var e ObservedEvent
		var codes, anchors, body string
		if err := rows.Scan(&e.ID, &e.At, &e.Kind, &e.WorkID, &e.AgentID, &e.NodeID, &e.Verb, &e.Seq, &e.Denied,
			&codes, &anchors, &e.Strategy, &e.DurationUS, &e.Tokens, &body); err != nil {
			return nil, err
		}
		e.Codes, e.Anchors = fieldsOrEmpty(codes), fieldsOrEmpty(anchors)
		if json.Valid([]byte(body)) {
			e.Body = json.RawMessage(body)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// LastEventID is the newest event's id (0 when there is none).
func (s *Store) LastEventID(ctx context.Context) (int64, error) {
	var id sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT MAX(id) FROM events`).Scan(&id)
	return id.Int64, err
}

// CountEvents counts the events table's rows.
func (s *Store) CountEvents(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM events`).Scan(&n)
	return n, err
}

func fieldsOrEmpty(s string) []string {
	f := strings.Fields(s)
	if f == nil {
		return []string{}
	}
	return f
}

// RunSummary is one work as the dashboard's /runs lists it.
type RunSummary struct {
	WorkID       string `json:"workId"`
	RunSessionID string `json:"runSessionId"`
	State        string `json:"state"`
	CreatedAt    string `json:"createdAt"`
	UpdatedAt    string `json:"updatedAt"`
	Agents       int    `json:"agents"`
	Turns        int    `json:"turns"`
	Denials      int    `json:"denials"`
	UsedTokens   int    `json:"usedTokens"`
	SliceTokens  int    `json:"grantedTokens"`
	Nodes        int    `json:"nodes"`
	NodesDone    int    `json:"nodesDone"`
}

// Runs lists works, most recently updated first, with their agents'
// totals and their plan's progress, in two grouped queries.
func (s *Store) Runs(ctx context.Context, limit int) ([]RunSummary, error) {
	if limit <= 0 {
		limit = 1000
	}
	rows, err := s.db.QueryContext(ctx, `SELECT w.id, w.run_session_id, w.state, w.created_at, w.updated_at,
  COALESCE(a.n,0), COALESCE(a.turns,0), COALESCE(a.denials,0), COALESCE(a.used,0), COALESCE(a.slice,0),
  COALESCE(n.n,0), COALESCE(n.done,0)
FROM works w
LEFT JOIN (SELECT work_id, COUNT(*) n, SUM(turns) turns, SUM(denials) denials, SUM(used_tokens) used, SUM(slice_tokens) slice
           FROM agents GROUP BY work_id) a ON a.work_id = w.id
LEFT JOIN (SELECT work_id, COUNT(*) n, SUM(status IN ('patched','passed','executed','resolved')) done
           FROM nodes GROUP BY work_id) n ON n.work_id = w.id
ORDER BY w.updated_at DESC LIMIT ?`, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []RunSummary{}
	for rows.Next() {
		var r RunSummary
		if err := rows.Scan(&r.WorkID, &r.RunSessionID, &r.State, &r.CreatedAt, &r.UpdatedAt, &r.Agents, &r.Turns,
			&r.Denials, &r.UsedTokens, &r.SliceTokens, &r.Nodes, &r.NodesDone); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DecisionRecords returns a work's decision records from seq after on, in
// order (at most limit).
func (s *Store) DecisionRecords(ctx context.Context, workID string, after, limit int) ([][]byte, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT record FROM decisions WHERE work_id = ? AND seq > ? ORDER BY seq LIMIT ?`, workID, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// DecisionRecord returns one decision record.
func (s *Store) DecisionRecord(ctx context.Context, workID string, seq int) ([]byte, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT record FROM decisions WHERE work_id = ? AND seq = ?`, workID, seq).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, ErrNotFound
	}
	return b, err
}

// AllGates lists every approved gate (work, gate).
func (s *Store) AllGates(ctx context.Context) (map[string][]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT work_id, gate_id FROM gates`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var w, g string
		if err := rows.Scan(&w, &g); err != nil {
			return nil, err
		}
		out[w] = append(out[w], g)
	}
	return out, rows.Err()
}

// GateNodes lists side_effect nodes with their bodies, for gates awaiting
// approval.
func (s *Store) GateNodes(ctx context.Context) ([]struct {
	WorkID, NodeID, Status string
	Body                   json.RawMessage
}, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT n.work_id, n.node_id, n.status, n.body FROM nodes n JOIN works w ON w.id = n.work_id
WHERE n.kind = 'side_effect' AND w.state NOT IN ('COMPLETED','FAILED')`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []struct {
		WorkID, NodeID, Status string
		Body                   json.RawMessage
	}
	for rows.Next() {
		var r struct {
			WorkID, NodeID, Status string
			Body                   json.RawMessage
		}
		if err := rows.Scan(&r.WorkID, &r.NodeID, &r.Status, &r.Body); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// TurnEvent returns the turn event of a work's decision seq (nil when it
// was not recorded or has been pruned).
func (s *Store) TurnEvent(ctx context.Context, workID string, seq int) (*ObservedEvent, error) {
	evs, err := s.ListEvents(ctx, EventFilter{WorkID: workID, Kind: "turn", Seq: seq, Limit: 1})
	if err != nil || len(evs) == 0 {
		return nil, err
	}
	return &evs[0], nil
}
