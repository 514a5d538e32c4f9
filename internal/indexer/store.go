package indexer

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"sort"

	"github.com/mcpc/mcpc/internal/store"
)

// schema creates the index tables. Raw references are stored rather than
// resolved edges, because a reference's target can appear or vanish without
// the referring file changing; edges are resolved in memory after a load.
const schema = `
CREATE TABLE IF NOT EXISTS idx_files (
	path        TEXT PRIMARY KEY,
	hash        TEXT NOT NULL,
	size        INTEGER NOT NULL,
	mtime       INTEGER NOT NULL,
	lang        TEXT NOT NULL,
	parse_error TEXT NOT NULL DEFAULT '',
	length      INTEGER NOT NULL,
	terms       BLOB
);
CREATE TABLE IF NOT EXISTS idx_symbols (
	file       TEXT NOT NULL,
	name       TEXT NOT NULL,
	kind       TEXT NOT NULL,
	start_line INTEGER NOT NULL,
	end_line   INTEGER NOT NULL,
	exported   INTEGER NOT NULL,
	container  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_symbols_file ON idx_symbols(file);
CREATE INDEX IF NOT EXISTS idx_symbols_name ON idx_symbols(name);
CREATE TABLE IF NOT EXISTS idx_refs (
	file   TEXT NOT NULL,
	kind   TEXT NOT NULL,
	by     TEXT NOT NULL,
	target TEXT NOT NULL,
	symbol TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS idx_refs_file ON idx_refs(file);
CREATE TABLE IF NOT EXISTS idx_usages (
	file       TEXT NOT NULL,
	tag        TEXT NOT NULL,
	start_line INTEGER NOT NULL,
	end_line   INTEGER NOT NULL,
	attrs      TEXT NOT NULL,
	anchor     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_usages_file ON idx_usages(file);
CREATE INDEX IF NOT EXISTS idx_usages_tag ON idx_usages(tag);
CREATE TABLE IF NOT EXISTS idx_problems (
	file    TEXT PRIMARY KEY,
	kind    TEXT NOT NULL,
	message TEXT NOT NULL
);
`

func createSchema(ctx context.Context, db *sql.DB) error {
	if err := store.RetryBusy(ctx, func() error { _, err := db.ExecContext(ctx, schema); return err }); err != nil {
		return fmt.Errorf("indexer: create tables: %w", err)
	}
	return nil
}

// loadAll reads the whole index into memory.
func loadAll(ctx context.Context, db *sql.DB) (map[string]*fileFacts, map[string]Problem, error) {
	files := map[string]*fileFacts{}
	rows, err := db.QueryContext(ctx, `SELECT path, hash, size, mtime, lang, parse_error, length, terms FROM idx_files`)
	if err != nil {
		return nil, nil, err
	}
	for rows.Next() {
		f := &fileFacts{}
		var blob []byte
		if err := rows.Scan(&f.Path, &f.Hash, &f.Size, &f.ModTime, &f.Lang, &f.ParseError, &f.Length, &blob); err != nil {
			rows.Close()
			return nil, nil, err
		}
		f.Terms = decodeTerms(blob)
		files[f.Path] = f
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if err := scanRows(ctx, db, `SELECT file, name, kind, start_line, end_line, exported, container FROM idx_symbols ORDER BY rowid`, func(r *sql.Rows) error {
		var s Symbol
		if err := r.Scan(&s.File, &s.Name, &s.Kind, &s.StartLine, &s.EndLine, &s.Exported, &s.Container); err != nil {
			return err
		}
		if f := files[s.File]; f != nil {
			f.Symbols = append(f.Symbols, s)
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if err := scanRows(ctx, db, `SELECT file, kind, by, target, symbol FROM idx_refs ORDER BY rowid`, func(r *sql.Rows) error {
		var file string
		var ref rawRef
		if err := r.Scan(&file, &ref.Kind, &ref.By, &ref.Target, &ref.Symbol); err != nil {
			return err
		}
		if f := files[file]; f != nil {
			f.Refs = append(f.Refs, ref)
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	if err := scanRows(ctx, db, `SELECT file, tag, start_line, end_line, attrs, anchor FROM idx_usages ORDER BY rowid`, func(r *sql.Rows) error {
		var u Usage
		if err := r.Scan(&u.File, &u.Tag, &u.StartLine, &u.EndLine, &u.Attrs, &u.Anchor); err != nil {
			return err
		}
		if f := files[u.File]; f != nil {
			f.Usages = append(f.Usages, u)
		}
		return nil
	}); err != nil {
		return nil, nil, err
	}
	problems := map[string]Problem{}
	if err := scanRows(ctx, db, `SELECT file, kind, message FROM idx_problems`, func(r *sql.Rows) error {
		var p Problem
		if err := r.Scan(&p.File, &p.Kind, &p.Message); err != nil {
			return err
		}
		problems[p.File] = p
		return nil
	}); err != nil {
		return nil, nil, err
	}
	return files, problems, nil
}

func scanRows(ctx context.Context, db *sql.DB, query string, fn func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// writer applies file changes in transactions. A file's row and all its facts
// change in one transaction, so a reader (or a run after a crash) sees either
// the old or the new facts of a file, never a mix.
type writer struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

var writerStatements = map[string]string{
	"delFile":    `DELETE FROM idx_files WHERE path = ?`,
	"delSymbols": `DELETE FROM idx_symbols WHERE file = ?`,
	"delRefs":    `DELETE FROM idx_refs WHERE file = ?`,
	"delUsages":  `DELETE FROM idx_usages WHERE file = ?`,
	"insFile":    `INSERT INTO idx_files (path, hash, size, mtime, lang, parse_error, length, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
	"insSymbol":  `INSERT INTO idx_symbols (file, name, kind, start_line, end_line, exported, container) VALUES (?, ?, ?, ?, ?, ?, ?)`,
	"insRef":     `INSERT INTO idx_refs (file, kind, by, target, symbol) VALUES (?, ?, ?, ?, ?)`,
	"insUsage":   `INSERT INTO idx_usages (file, tag, start_line, end_line, attrs, anchor) VALUES (?, ?, ?, ?, ?, ?)`,
	"touch":      `UPDATE idx_files SET size = ?, mtime = ? WHERE path = ?`,
}

func beginWriter(ctx context.Context, db *sql.DB) (*writer, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	w := &writer{tx: tx, stmts: map[string]*sql.Stmt{}}
	for name, q := range writerStatements {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			tx.Rollback()
			return nil, err
		}
		w.stmts[name] = st
	}
	return w, nil
}

func (w *writer) exec(name string, args ...any) error {
	_, err := w.stmts[name].Exec(args...)
	return err
}

func (w *writer) remove(path string) error {
	for _, name := range []string{"delFile", "delSymbols", "delRefs", "delUsages"} {
		if err := w.exec(name, path); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) put(f *fileFacts) error {
	if err := w.remove(f.Path); err != nil {
		return err
	}
	if err := w.exec("insFile", f.Path, f.Hash, f.Size, f.ModTime, f.Lang, f.ParseError, f.Length, encodeTerms(f.Terms)); err != nil {
		return err
	}
	for _, s := range f.Symbols {
		if err := w.exec("insSymbol", f.Path, s.Name, s.Kind, s.StartLine, s.EndLine, s.Exported, s.Container); err != nil {
			return err
		}
	}
	for _, r := range f.Refs {
		if err := w.exec("insRef", f.Path, r.Kind, r.By, r.Target, r.Symbol); err != nil {
			return err
		}
	}
	for _, u := range f.Usages {
		if err := w.exec("insUsage", f.Path, u.Tag, u.StartLine, u.EndLine, u.Attrs, u.Anchor); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) touch(f *fileFacts) error { return w.exec("touch", f.Size, f.ModTime, f.Path) }

// setProblems replaces the stored walk problems.
func (w *writer) setProblems(problems []Problem) error {
	if _, err := w.tx.Exec(`DELETE FROM idx_problems`); err != nil {
		return err
	}
	for _, p := range problems {
		if _, err := w.tx.Exec(`INSERT OR REPLACE INTO idx_problems (file, kind, message) VALUES (?, ?, ?)`, p.File, p.Kind, p.Message); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) commit() error {
	for _, st := range w.stmts {
		st.Close()
	}
	return w.tx.Commit()
}

func (w *writer) rollback() {
	for _, st := range w.stmts {
		st.Close()
	}
	w.tx.Rollback()
}

// encodeTerms packs term counts as (uvarint len, bytes, uvarint count)
// tuples in term order, so equal content gives equal blobs.
func encodeTerms(terms map[string]int32) []byte {
	keys := make([]string, 0, len(terms))
	for k := range terms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	buf := make([]byte, 0, len(keys)*10)
	for _, k := range keys {
		buf = binary.AppendUvarint(buf, uint64(len(k)))
		buf = append(buf, k...)
		buf = binary.AppendUvarint(buf, uint64(terms[k]))
	}
	return buf
}

func decodeTerms(buf []byte) map[string]int32 {
	terms := make(map[string]int32, len(buf)/10)
	for len(buf) > 0 {
		n, k := binary.Uvarint(buf)
		if k <= 0 || int(n) > len(buf)-k {
			break
		}
		term := string(buf[k : k+int(n)])
		buf = buf[k+int(n):]
		c, k := binary.Uvarint(buf)
		if k <= 0 {
			break
		}
		buf = buf[k:]
		terms[term] = int32(c)
	}
	return terms
}
