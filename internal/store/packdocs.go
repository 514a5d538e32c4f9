package store

import (
	"context"
	"database/sql"
	"errors"
)

// crashSchema holds what lets a process that starts after another died
// finish that one's work: each work's current pack document (the file on
// disk is written after the commit and can be missing), and the pending
// decisions already recorded (their files are removed after the commit).
const crashSchema = `
CREATE TABLE IF NOT EXISTS pack_docs (
  work_id TEXT PRIMARY KEY REFERENCES works(id),
  ref TEXT NOT NULL,
  doc BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS recorded_pending (
  work_id TEXT NOT NULL,
  pending_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (work_id, pending_id)
);
`

// PutPackDoc keeps a work's pack document as committed with its row: the
// one the row's summary names (ref) and hashes. Only the current one is
// kept; older versions live on only as files, until they are swept.
func (t *Tx) PutPackDoc(ctx context.Context, workID, ref string, doc []byte) error {
	_, err := t.exec(`INSERT INTO pack_docs (work_id, ref, doc) VALUES (?,?,?)
ON CONFLICT(work_id) DO UPDATE SET ref=excluded.ref, doc=excluded.doc`, workID, ref, doc)
	return err
}

// PackDoc is a work's current pack document and the ref it was committed
// under; ErrNotFound for a work made before the store kept them.
func (t *Tx) PackDoc(ctx context.Context, workID string) (ref string, doc []byte, err error) {
	err = t.queryRow(`SELECT ref, doc FROM pack_docs WHERE work_id = ?`, workID).Scan(&ref, &doc)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, ErrNotFound
	}
	return ref, doc, err
}

// MarkPendingRecorded notes, in the transaction that records it, that the
// pending decision pendingID of a work was recorded as decision seq.
func (t *Tx) MarkPendingRecorded(ctx context.Context, workID, pendingID string, seq int) error {
	_, err := t.exec(`INSERT INTO recorded_pending (work_id, pending_id, seq) VALUES (?,?,?)`, workID, pendingID, seq)
	return err
}

// PendingRecorded is the decision a pending decision was recorded as, or
// 0 when it was not: a process that died between recording it and
// removing its file leaves the file to the next, which must not record it
// again.
func (t *Tx) PendingRecorded(ctx context.Context, workID, pendingID string) (int, error) {
	var seq int
	err := t.queryRow(`SELECT seq FROM recorded_pending WHERE work_id = ? AND pending_id = ?`, workID, pendingID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return seq, err
}
