package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
)

// idleSessions is how many connections stay held, with their prepared
// statements, between transactions. It is below the pool's four, so the
// code index (which uses the pool directly, never inside a transaction)
// always gets a connection once running transactions end.
const idleSessions = 2

// session is one pooled connection held for one transaction at a time,
// with the statements prepared on it.
//
// Transactions run on a held connection rather than a database/sql Tx, with
// a context that cannot be cancelled. For a Tx database/sql starts a
// goroutine to watch the context, and another for every query's rows; the
// driver starts one more for every statement whose context can be
// cancelled. A read turn started about ten goroutines that way, each waking
// another thread. A turn always runs to its end (the MCP layer waits for
// it), so nothing was gained by them: statements now run to completion, and
// a transaction blocked on another process's lock waits out busy_timeout.
type session struct {
	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	// busyMs is the busy_timeout set on the connection (setBusyTimeout);
	// 0 is the one it opened with.
	busyMs int
}

func (ss *session) close() {
	ss.closeStmts()
	ss.conn.Close()
}

// closeStmts finalizes the session's statements first: SQLite keeps a
// connection (and the locks of its open transaction) alive until they are.
func (ss *session) closeStmts() {
	for _, st := range ss.stmts {
		st.Close()
	}
	clear(ss.stmts)
}

// discard closes the session's connection for good rather than returning it
// to the pool: a transaction on it could not be ended, and closing the
// connection rolls it back.
func (ss *session) discard() {
	ss.closeStmts()
	_ = ss.conn.Raw(func(any) error { return driver.ErrBadConn })
	ss.conn.Close()
}

func (s *Store) acquire(ctx context.Context) (*session, error) {
	select {
	case ss := <-s.idle:
		return ss, nil
	default:
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	return &session{conn: conn, stmts: map[string]*sql.Stmt{}}, nil
}

func (s *Store) release(ss *session) {
	select {
	case s.idle <- ss:
	default:
		ss.close()
	}
}

// Tx is one turn's transaction.
type Tx struct {
	ss  *session
	s   *Store
	ctx context.Context // the transaction's own, never cancelled
	// revs are work revisions read in this transaction. Nothing but this
	// transaction can change them before it ends, and its own writes drop
	// them, so a later read in the same turn need not ask again.
	revs map[string]int64
	// guard is the watchdog of a bounded transaction (UpdateWithin); nil
	// otherwise.
	guard *txGuard
}

// Update runs fn in an immediate write transaction (the write lock is taken
// at its start, so turns across processes are serialised), committing when
// fn returns nil.
func (s *Store) Update(ctx context.Context, fn func(*Tx) error) error {
	return s.transact(ctx, "BEGIN IMMEDIATE", true, Bounds{}, fn)
}

// View runs fn in a read transaction, which sees one consistent state of
// the database and writes nothing (used by CLI readers and retrieval).
func (s *Store) View(ctx context.Context, fn func(*Tx) error) error {
	return s.transact(ctx, "BEGIN", false, Bounds{}, fn)
}

// stmt returns query prepared on this transaction's connection, once per
// connection: parsing SQL on every turn cost as much as the policy decision.
func (t *Tx) stmt(query string) (*sql.Stmt, bool) {
	if st, ok := t.ss.stmts[query]; ok {
		return st, true
	}
	st, err := t.ss.conn.PrepareContext(t.ctx, query)
	if err != nil {
		return nil, false
	}
	t.ss.stmts[query] = st
	return st, true
}

// exec, queryRow and query run a statement in the transaction, under its
// own context (see session). A statement that cannot be prepared runs
// unprepared, which reports why it failed.
func (t *Tx) exec(query string, args ...any) (sql.Result, error) {
	if t.guard != nil {
		// Past its deadline the transaction was rolled back: a write now
		// would autocommit on its own.
		if err := t.guard.enter(); err != nil {
			return nil, err
		}
		defer t.guard.leave()
	}
	if st, ok := t.stmt(query); ok {
		return st.ExecContext(t.ctx, args...)
	}
	return t.ss.conn.ExecContext(t.ctx, query, args...)
}

func (t *Tx) queryRow(query string, args ...any) *sql.Row {
	if st, ok := t.stmt(query); ok {
		return st.QueryRowContext(t.ctx, args...)
	}
	return t.ss.conn.QueryRowContext(t.ctx, query, args...)
}

// writeRow runs a write that returns one row (INSERT … RETURNING) and
// scans it into dest; in a bounded transaction it is a write like exec.
func (t *Tx) writeRow(dest []any, query string, args ...any) error {
	if t.guard != nil {
		if err := t.guard.enter(); err != nil {
			return err
		}
		defer t.guard.leave()
	}
	return t.queryRow(query, args...).Scan(dest...)
}

// column runs a query of one column and returns its values in order.
func column[T any](t *Tx, query string, args ...any) ([]T, error) {
	rows, err := t.query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

func (t *Tx) query(query string, args ...any) (*sql.Rows, error) {
	if st, ok := t.stmt(query); ok {
		return st.QueryContext(t.ctx, args...)
	}
	return t.ss.conn.QueryContext(t.ctx, query, args...)
}
