package store

import (
	"context"
	"database/sql"
	"errors"
)

// safetySchema holds the tables of the execution guards: the trace
// ledger's anchor, file reservations between agents, and recorded events.
const safetySchema = `
CREATE TABLE IF NOT EXISTS ledger_head (
  ledger TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL,
  at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS reservations (
  file TEXT PRIMARY KEY,
  work_id TEXT NOT NULL,
  node_id TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
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

// LedgerHead is the last (seq, hash) appended to the named ledger, or
// (0, "") when none was.
func (t *Tx) LedgerHead(ctx context.Context, ledger string) (seq int, hash string, err error) {
	err = t.queryRow(`SELECT seq, hash FROM ledger_head WHERE ledger = ?`, ledger).Scan(&seq, &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	return seq, hash, err
}

// SetLedgerHead records what was appended to the ledger. The head only
// moves forward: it is the anchor a verification checks the file against.
func (t *Tx) SetLedgerHead(ctx context.Context, ledger string, seq int, hash string) error {
	_, err := t.exec(`INSERT INTO ledger_head (ledger, seq, hash, at) VALUES (?,?,?,?)
ON CONFLICT(ledger) DO UPDATE SET seq=excluded.seq, hash=excluded.hash, at=excluded.at WHERE excluded.seq > ledger_head.seq`,
		ledger, seq, hash, now())
	return err
}
