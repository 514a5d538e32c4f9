// Package store owns mcpc's runtime state: one SQLite database (WAL) under
// .ai/tmp/ that several mcpc processes share, because every stdio MCP client
// starts its own process and sub-agents of one work meet only here. Each turn
// runs in one immediate write transaction, so turns on the same workspace are
// serialised across processes and never see half of another turn.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver, pure Go
)

// Store is the shared runtime database.
type Store struct {
	db    *sql.DB
	idle  chan *session // connections kept with their statements between transactions
	works revCache[*Work]
	nodes revCache[[]Node]
}

// Open opens (creating if needed) the database at path.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	q := url.Values{}
	for _, p := range []string{"busy_timeout(15000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)",
		// SQLite's own checkpoint runs inside the commit that crosses the
		// limit, and its fsyncs (up to ~20 ms here) land on that turn. mcpc
		// checkpoints in a pause between turns every few hundred turns
		// (Checkpoint); SQLite steps in only after a long burst, and a WAL
		// grown by one is cut back afterwards.
		fmt.Sprintf("wal_autocheckpoint(%d)", walAutoCheckpointPages), fmt.Sprintf("journal_size_limit(%d)", walSizeLimit)} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(4)
	s := &Store{db: db, idle: make(chan *session, idleSessions)}
	s.works.clone, s.nodes.clone = cloneWork, cloneNodes
	if err := s.migrate(context.Background()); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return s, nil
}

// walAutoCheckpointPages is where SQLite checkpoints by itself (about 2,000
// read turns of 5 pages each); walSizeLimit is the WAL size kept on disk
// after a checkpoint.
const (
	walAutoCheckpointPages = 10000
	walSizeLimit           = 16 << 20
)

// Checkpoint copies the write-ahead log into the database without waiting
// for readers or writers (PASSIVE), and says how many pages the log held
// and how many are now in the database. mcpc calls it when no turn runs.
func (s *Store) Checkpoint(ctx context.Context) (logged, copied int, err error) {
	var busy int
	err = s.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &copied)
	return logged, copied, err
}

// DB exposes the database to packages that keep their own tables in it (the
// code index).
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the database.
func (s *Store) Close() error {
	for {
		select {
		case ss := <-s.idle:
			ss.close()
		default:
			return s.db.Close()
		}
	}
}

const schema = `
CREATE TABLE IF NOT EXISTS works (
  id TEXT PRIMARY KEY,
  run_session_id TEXT NOT NULL,
  state TEXT NOT NULL,
  prompt TEXT NOT NULL,
  lexemes TEXT NOT NULL,
  pack TEXT NOT NULL,
  plan TEXT NOT NULL DEFAULT '',
  strategy TEXT NOT NULL,
  repo_snapshot TEXT NOT NULL,
  rev INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS agents (
  work_id TEXT NOT NULL REFERENCES works(id),
  id TEXT NOT NULL,
  used_tokens INTEGER NOT NULL DEFAULT 0,
  turns INTEGER NOT NULL DEFAULT 0,
  denials INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  PRIMARY KEY (work_id, id)
);
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  used_tokens INTEGER NOT NULL DEFAULT 0,
  turns INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS nodes (
  work_id TEXT NOT NULL REFERENCES works(id),
  node_id TEXT NOT NULL,
  ord INTEGER NOT NULL,
  kind TEXT NOT NULL,
  status TEXT NOT NULL,
  target_file TEXT NOT NULL DEFAULT '',
  maps_to TEXT NOT NULL DEFAULT '[]',
  body TEXT NOT NULL,
  run TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL,
  PRIMARY KEY (work_id, node_id)
);
CREATE TABLE IF NOT EXISTS decisions (
  work_id TEXT NOT NULL REFERENCES works(id),
  seq INTEGER NOT NULL,
  denied INTEGER NOT NULL,
  record BLOB NOT NULL,
  PRIMARY KEY (work_id, seq)
);
CREATE TABLE IF NOT EXISTS gates (
  work_id TEXT NOT NULL REFERENCES works(id),
  gate_id TEXT NOT NULL,
  approved_by TEXT NOT NULL,
  note TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (work_id, gate_id)
);
CREATE TABLE IF NOT EXISTS reads (
  work_id TEXT NOT NULL REFERENCES works(id),
  file TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (work_id, file)
);
`

func (s *Store) migrate(ctx context.Context) error {
	return RetryBusy(ctx, func() error {
		if _, err := s.db.ExecContext(ctx, schema+safetySchema+crashSchema); err != nil {
			return err
		}
		if err := s.migrateEvents(ctx); err != nil {
			return err
		}
		// Databases made before works had a revision, nodes a run or agents a
		// budget slice get one.
		for _, col := range []struct{ table, column, decl string }{
			{"works", "rev", "INTEGER NOT NULL DEFAULT 0"},
			{"nodes", "run", "TEXT NOT NULL DEFAULT ''"},
			{"agents", "slice_tokens", "INTEGER NOT NULL DEFAULT 0"},
		} {
			if _, err := s.db.ExecContext(ctx, `SELECT `+col.column+` FROM `+col.table+` LIMIT 0`); err != nil {
				if _, err := s.db.ExecContext(ctx, `ALTER TABLE `+col.table+` ADD COLUMN `+col.column+` `+col.decl); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
