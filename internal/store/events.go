package store

import (
	"context"
	"encoding/json"
)

// Event is something a work's agents did that is kept beside decisions,
// such as a recipe_usage (which recipe ran, for which node, with what).
type Event struct {
	WorkID  string
	Kind    string
	AgentID string
	NodeID  string
	Body    any
}

// AddEvent records an event.
func (t *Tx) AddEvent(ctx context.Context, e Event) error {
	body, err := json.Marshal(e.Body)
	if err != nil {
		return err
	}
	_, err = t.exec(`INSERT INTO events (work_id, kind, agent_id, node_id, body, at) VALUES (?,?,?,?,?,?)`,
		e.WorkID, e.Kind, e.AgentID, e.NodeID, string(body), now())
	return err
}

// Events lists a work's events of a kind, oldest first, as stored (body
// is JSON).
func (t *Tx) Events(ctx context.Context, workID, kind string) ([]json.RawMessage, error) {
	bodies, err := column[string](t, `SELECT body FROM events WHERE work_id = ? AND kind = ? ORDER BY id`, workID, kind)
	out := make([]json.RawMessage, len(bodies))
	for i, b := range bodies {
		out[i] = json.RawMessage(b)
	}
	return out, err
}
