package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned when a work or agent does not exist.
var ErrNotFound = errors.New("not found")

// Work is one piece of work: its state, pack and plan, shared by its agents.
type Work struct {
	ID             string
	RunSessionID   string
	State          string
	Prompt         string
	Lexemes        []string
	Pack           json.RawMessage // the pack summary (ref, hash, files, outcome)
	Strategy       json.RawMessage // the strategy decided at initialize_work
	RepoSnapshotID string
	// Rev counts the row's writes; (ID, Rev) names one content of the row
	// across processes, so what is derived from it can be cached.
	Rev int64
}

// Agent is one agent's tracking entry under a work.
type Agent struct {
	WorkID     string
	ID         string
	UsedTokens int
	Turns      int
	Denials    int
	// SliceTokens is the budget slice the agent was granted from the
	// work's pool; 0 until one is granted.
	SliceTokens int
}

// Session is one MCP session's spending across all its works.
type Session struct {
	ID         string
	UsedTokens int
	Turns      int
}

// Node is the execution status of one accepted plan node. MapsTo (a
// validate node's mapsToNodeIds) has its own column so progress can be
// counted on every turn without decoding node bodies.
type Node struct {
	NodeID     string
	Ord        int
	Kind       string
	Status     string
	TargetFile string
	MapsTo     []string
	Body       json.RawMessage
}

// rev is a work's revision as of this transaction.
func (t *Tx) rev(ctx context.Context, workID string) (int64, error) {
	if rev, ok := t.revs[workID]; ok {
		return rev, nil
	}
	var rev int64
	if err := t.queryRow(`SELECT rev FROM works WHERE id = ?`, workID).Scan(&rev); err != nil {
		return 0, err
	}
	if t.revs == nil {
		t.revs = map[string]int64{}
	}
	t.revs[workID] = rev
	return rev, nil
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// Work loads a work by id. Every turn loads its work, so rows are cached
// per process and re-read only when another write has bumped the row's
// revision; the revision check is one indexed integer read.
func (t *Tx) Work(ctx context.Context, id string) (*Work, error) {
	rev, err := t.rev(ctx, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	if w, ok := t.s.works.get(id, rev); ok {
		return w, nil
	}
	w := &Work{}
	var lex, pack, strategy string
	err = t.queryRow(`SELECT id, run_session_id, state, prompt, lexemes, pack, strategy, repo_snapshot, rev FROM works WHERE id = ?`, id).
		Scan(&w.ID, &w.RunSessionID, &w.State, &w.Prompt, &lex, &pack, &strategy, &w.RepoSnapshotID, &w.Rev)
	if err != nil {
		return nil, err
	}
	_ = json.Unmarshal([]byte(lex), &w.Lexemes)
	w.Pack, w.Strategy = json.RawMessage(pack), json.RawMessage(strategy)
	// Only rows read back are cached: a write may still roll back, and its
	// revision could then name another process's content.
	t.s.works.put(id, w.Rev, w)
	return cloneWork(w), nil
}

// PutWork inserts a work or updates its state, pack and strategy, bumping
// its revision (w.Rev is set to the new one).
func (t *Tx) PutWork(ctx context.Context, w *Work) error {
	lex, _ := json.Marshal(w.Lexemes)
	ts := now()
	delete(t.revs, w.ID)
	return t.writeRow([]any{&w.Rev}, `INSERT INTO works (id, run_session_id, state, prompt, lexemes, pack, strategy, repo_snapshot, rev, created_at, updated_at)
VALUES (?,?,?,?,?,?,?,?,1,?,?)
ON CONFLICT(id) DO UPDATE SET state=excluded.state, pack=excluded.pack, strategy=excluded.strategy,
  rev=works.rev+1, updated_at=excluded.updated_at
RETURNING rev`,
		w.ID, w.RunSessionID, w.State, w.Prompt, string(lex), string(w.Pack), string(w.Strategy), w.RepoSnapshotID, ts, ts)
}

// SetPlan keeps the accepted PlanGraph document with its work (the nodes
// table holds what turns use; this is the document as accepted).
func (t *Tx) SetPlan(ctx context.Context, workID string, plan []byte) error {
	if _, err := t.exec(`UPDATE works SET plan = ?, updated_at = ? WHERE id = ?`, string(plan), now(), workID); err != nil {
		return err
	}
	return t.bumpRev(ctx, workID)
}

// NextDecision is the work's next decision number. Turns hold the write
// lock, so the highest recorded number plus one cannot be taken twice; it
// is read from the decisions key rather than a counter on the work row, so
// a read turn never rewrites the row.
func (t *Tx) NextDecision(ctx context.Context, workID string) (int, error) {
	var n int
	err := t.queryRow(`SELECT COALESCE(MAX(seq), 0) + 1 FROM decisions WHERE work_id = ?`, workID).Scan(&n)
	return n, err
}

// Agent loads an agent of a work.
func (t *Tx) Agent(ctx context.Context, workID, id string) (*Agent, error) {
	a := &Agent{WorkID: workID, ID: id}
	err := t.queryRow(`SELECT used_tokens, turns, denials, slice_tokens FROM agents WHERE work_id = ? AND id = ?`, workID, id).
		Scan(&a.UsedTokens, &a.Turns, &a.Denials, &a.SliceTokens)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return a, err
}

// PutAgent inserts or updates an agent's counters.
func (t *Tx) PutAgent(ctx context.Context, a *Agent) error {
	_, err := t.exec(`INSERT INTO agents (work_id, id, used_tokens, turns, denials, slice_tokens, created_at) VALUES (?,?,?,?,?,?,?)
ON CONFLICT(work_id, id) DO UPDATE SET used_tokens=excluded.used_tokens, turns=excluded.turns, denials=excluded.denials, slice_tokens=excluded.slice_tokens`,
		a.WorkID, a.ID, a.UsedTokens, a.Turns, a.Denials, a.SliceTokens, now())
	return err
}

// WorkBudget is what a work's agents have used together and the budget
// slices granted to them from its pool.
func (t *Tx) WorkBudget(ctx context.Context, workID string) (used, granted int, err error) {
	err = t.queryRow(`SELECT COALESCE(SUM(used_tokens), 0), COALESCE(SUM(slice_tokens), 0) FROM agents WHERE work_id = ?`, workID).
		Scan(&used, &granted)
	return used, granted, err
}

// Session loads an MCP session's spending; a session not seen yet has
// spent nothing.
func (t *Tx) Session(ctx context.Context, id string) (*Session, error) {
	s := &Session{ID: id}
	err := t.queryRow(`SELECT used_tokens, turns FROM sessions WHERE id = ?`, id).Scan(&s.UsedTokens, &s.Turns)
	if errors.Is(err, sql.ErrNoRows) {
		return s, nil
	}
	return s, err
}

// PutSession inserts or updates a session's counters.
func (t *Tx) PutSession(ctx context.Context, s *Session) error {
	ts := now()
	_, err := t.exec(`INSERT INTO sessions (id, used_tokens, turns, created_at, updated_at) VALUES (?,?,?,?,?)
ON CONFLICT(id) DO UPDATE SET used_tokens=excluded.used_tokens, turns=excluded.turns, updated_at=excluded.updated_at`,
		s.ID, s.UsedTokens, s.Turns, ts, ts)
	return err
}

// WorkIDs lists every work's id.
func (t *Tx) WorkIDs(ctx context.Context) ([]string, error) {
	return column[string](t, `SELECT id FROM works ORDER BY created_at, id`)
}

// WorkUsedTokens is what a work's agents have used together.
func (t *Tx) WorkUsedTokens(ctx context.Context, workID string) (int, error) {
	var n int
	err := t.queryRow(`SELECT COALESCE(SUM(used_tokens), 0) FROM agents WHERE work_id = ?`, workID).Scan(&n)
	return n, err
}

// Agents lists a work's agents.
func (t *Tx) Agents(ctx context.Context, workID string) ([]Agent, error) {
	rows, err := t.query(`SELECT id, used_tokens, turns, denials FROM agents WHERE work_id = ? ORDER BY created_at, id`, workID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Agent
	for rows.Next() {
		a := Agent{WorkID: workID}
		if err := rows.Scan(&a.ID, &a.UsedTokens, &a.Turns, &a.Denials); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Nodes lists the accepted plan's nodes in plan order; without bodies when
// the caller needs only statuses and mappings (progress, on every turn).
// Those lists are cached per work revision, which every node write bumps.
// The caller owns the returned slice but not the MapsTo slices inside.
func (t *Tx) Nodes(ctx context.Context, workID string, withBodies bool) ([]Node, error) {
	var rev int64 = -1
	if !withBodies {
		if r, err := t.rev(ctx, workID); err == nil {
			rev = r
			if nodes, ok := t.s.nodes.get(workID, rev); ok {
				return nodes, nil
			}
		}
	}
	q := `SELECT node_id, ord, kind, status, target_file, maps_to, '' FROM nodes WHERE work_id = ? ORDER BY ord`
	if withBodies {
		q = `SELECT node_id, ord, kind, status, target_file, maps_to, body FROM nodes WHERE work_id = ? ORDER BY ord`
	}
	rows, err := t.query(q, workID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Node
	for rows.Next() {
		var n Node
		var body, mapsTo string
		if err := rows.Scan(&n.NodeID, &n.Ord, &n.Kind, &n.Status, &n.TargetFile, &mapsTo, &body); err != nil {
			return nil, err
		}
		n.Body = json.RawMessage(body)
		_ = json.Unmarshal([]byte(mapsTo), &n.MapsTo)
		out = append(out, n)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if rev >= 0 {
		t.s.nodes.put(workID, rev, out)
	}
	return out, nil
}

// ReplaceNodes swaps in a newly accepted plan's nodes.
func (t *Tx) ReplaceNodes(ctx context.Context, workID string, nodes []Node) error {
	if _, err := t.exec(`DELETE FROM nodes WHERE work_id = ?`, workID); err != nil {
		return err
	}
	ts := now()
	for _, n := range nodes {
		mapsTo, _ := json.Marshal(n.MapsTo)
		if n.MapsTo == nil {
			mapsTo = []byte("[]")
		}
		if _, err := t.exec(`INSERT INTO nodes (work_id, node_id, ord, kind, status, target_file, maps_to, body, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
			workID, n.NodeID, n.Ord, n.Kind, n.Status, n.TargetFile, string(mapsTo), string(n.Body), ts); err != nil {
			return err
		}
	}
	return t.bumpRev(ctx, workID)
}

// SetNodeStatus records a node's new execution status. It ends the node's
// run, if one was under way: that run's outcome is no longer recorded.
func (t *Tx) SetNodeStatus(ctx context.Context, workID, nodeID, status string) error {
	return t.StartRun(ctx, workID, nodeID, status, "")
}

// StartRun records a node's status for a run (a validation command) that
// goes on after the transaction, under the run's token; FinishRun records
// its outcome only while the node is still in that run.
func (t *Tx) StartRun(ctx context.Context, workID, nodeID, status, run string) error {
	if _, err := t.exec(`UPDATE nodes SET status = ?, run = ?, updated_at = ? WHERE work_id = ? AND node_id = ?`, status, run, now(), workID, nodeID); err != nil {
		return err
	}
	return t.bumpRev(ctx, workID)
}

// NodeRun returns the run token a node's status was last recorded under
// ("" when none, or when the node does not exist).
func (t *Tx) NodeRun(ctx context.Context, workID, nodeID string) (string, error) {
	var run string
	err := t.queryRow(`SELECT run FROM nodes WHERE work_id = ? AND node_id = ?`, workID, nodeID).Scan(&run)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return run, err
}

// FinishRun records the outcome of run on a node and reports whether it
// did: not when another status or run has replaced it since (a later run
// of the same validation, a new patch of what it checked).
func (t *Tx) FinishRun(ctx context.Context, workID, nodeID, run, status string) (bool, error) {
	if run == "" {
		return false, fmt.Errorf("store: FinishRun without a run token")
	}
	res, err := t.exec(`UPDATE nodes SET status = ?, run = '', updated_at = ? WHERE work_id = ? AND node_id = ? AND run = ?`, status, now(), workID, nodeID, run)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	return true, t.bumpRev(ctx, workID)
}

// bumpRev marks the work changed, so no process reuses what it cached of it.
func (t *Tx) bumpRev(ctx context.Context, workID string) error {
	delete(t.revs, workID)
	_, err := t.exec(`UPDATE works SET rev = rev + 1 WHERE id = ?`, workID)
	return err
}

// Reads returns the content hashes this work last read of files.
func (t *Tx) Reads(ctx context.Context, workID string, files ...string) (map[string]string, error) {
	out := map[string]string{}
	for _, f := range files {
		var h string
		err := t.queryRow(`SELECT hash FROM reads WHERE work_id = ? AND file = ?`, workID, f).Scan(&h)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[f] = h
	}
	return out, nil
}

// RecordRead remembers the hash of a file as the work read (or wrote) it.
func (t *Tx) RecordRead(ctx context.Context, workID, file, hash string) error {
	_, err := t.exec(`INSERT INTO reads (work_id, file, hash) VALUES (?,?,?) ON CONFLICT(work_id, file) DO UPDATE SET hash=excluded.hash`, workID, file, hash)
	return err
}
