package indexer

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

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
-- The stamps a process opens with (loadStamps) are every column but the
-- terms; a scan of the table reads the terms too, stored inline (about
-- 1.3 KB a file): at 47,550 files 79 MB of pages against the 8 MB of
-- this index, and a new process's first turn waited on it (0.45 s of
-- wall time). SQLite scans a covering index instead of the table.
CREATE INDEX IF NOT EXISTS idx_files_stamps ON idx_files(path, hash, size, mtime, lang, parse_error, length);
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
-- The references a resolver's users come from (loadUsersBeside), read
-- from the index alone: at 47,870 files 46,000 of 390,000 rows.
CREATE INDEX IF NOT EXISTS idx_refs_users ON idx_refs(by, target, file) WHERE by IN ('symbol', 'selector');
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
CREATE TABLE IF NOT EXISTS idx_meta (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
);
`

func createSchema(ctx context.Context, db *sql.DB) error {
	if err := store.RetryBusy(ctx, func() error { _, err := db.ExecContext(ctx, schema+stampsSchema+listingsSchema); return err }); err != nil {
		return fmt.Errorf("indexer: create tables: %w", err)
	}
	return nil
}

// stampsQuery reads every column of idx_files but the terms, which
// idx_files_stamps covers.
const stampsQuery = `SELECT path, hash, size, mtime, lang, parse_error, length FROM idx_files`

// loadStamps reads what a refresh compares the tree against and what the
// stamp-only queries answer (HasFile, Lang, ParseFailures, Problems): each
// file's row without its terms, and the walk problems. The facts stay on
// disk until a view needs them (loadFacts): a refresh that finds nothing
// changed, or a cold build, never holds a tree's facts in memory.
func loadStamps(ctx context.Context, q querier) (map[string]*fileFacts, map[string]Problem, error) {
	files := map[string]*fileFacts{}
	if err := scanRows(ctx, q, stampsQuery, func(r *sql.Rows) error {
		f := &fileFacts{}
		if err := r.Scan(&f.Path, &f.Hash, &f.Size, &f.ModTime, &f.Lang, &f.ParseError, &f.Length); err != nil {
			return err
		}
		f.Lang = intern(f.Lang)
		files[f.Path] = f
		return nil
	}); err != nil {
		return nil, nil, err
	}
	problems, err := loadProblems(ctx, q)
	return files, problems, err
}

// loadProblems reads the walk problems.
func loadProblems(ctx context.Context, q querier) (map[string]Problem, error) {
	problems := map[string]Problem{}
	err := scanRows(ctx, q, `SELECT file, kind, message FROM idx_problems`, func(r *sql.Rows) error {
		var p Problem
		if err := r.Scan(&p.File, &p.Kind, &p.Message); err != nil {
			return err
		}
		problems[p.File] = p
		return nil
	})
	return problems, err
}

// loadFacts reads the terms, symbols, references and usages of the files
// into them (rows of other files are skipped: the caller's file set is the
// one it answers for).
func loadFacts(ctx context.Context, q querier, files map[string]*fileFacts, withTerms bool) error {
	for _, f := range files { // what an earlier, failed load left
		f.Terms, f.Symbols, f.Refs, f.Usages = nil, nil, nil, nil
	}
	// Without the terms (a view read back holds them in its corpus) the
	// blobs, most of the bytes, are not read at all.
	if withTerms {
		if err := scanRows(ctx, q, `SELECT path, terms FROM idx_files`, func(r *sql.Rows) error {
			var path string
			var blob []byte
			if err := r.Scan(&path, &blob); err != nil {
				return err
			}
			if f := files[path]; f != nil {
				f.Terms = termBlob(blob)
			}
			return nil
		}); err != nil {
			return err
		}
	}
	if err := scanSymbols(ctx, q, files, writeOrder, func(f *fileFacts, s Symbol) { f.Symbols = append(f.Symbols, s) }); err != nil {
		return err
	}
	if err := scanRefs(ctx, q, files, writeOrder, sharedRefs(func(f *fileFacts, ref rawRef) { f.Refs = append(f.Refs, ref) })); err != nil {
		return err
	}
	return scanRows(ctx, q, `SELECT file, tag, start_line, end_line, attrs, anchor FROM idx_usages ORDER BY rowid`, func(r *sql.Rows) error {
		var u Usage
		if err := r.Scan(&u.File, &u.Tag, &u.StartLine, &u.EndLine, &u.Attrs, &u.Anchor); err != nil {
			return err
		}
		if f := files[u.File]; f != nil {
			u.File = f.Path
			f.Usages = append(f.Usages, u)
		}
		return nil
	})
}

// Orders of the fact rows: as written (a table scan), or by file and each
// file's as written (through the file index, which costs a lookup a row).
const (
	writeOrder = "rowid"
	pathOrder  = "file, rowid"
)

// scanSymbols calls fn with every stored symbol of the files, in order.
func scanSymbols(ctx context.Context, q querier, files map[string]*fileFacts, order string, fn func(*fileFacts, Symbol)) error {
	return scanRows(ctx, q, `SELECT file, name, kind, start_line, end_line, exported, container FROM idx_symbols ORDER BY `+order, symbolRow(files, fn))
}

// symbolRow scans a row of idx_symbols' columns and hands it to fn if its
// file is one of files.
func symbolRow(files map[string]*fileFacts, fn func(*fileFacts, Symbol)) func(*sql.Rows) error {
	return func(r *sql.Rows) error {
		var s Symbol
		if err := r.Scan(&s.File, &s.Name, &s.Kind, &s.StartLine, &s.EndLine, &s.Exported, &s.Container); err != nil {
			return err
		}
		if f := files[s.File]; f != nil {
			s.File, s.Kind = f.Path, intern(s.Kind)
			fn(f, s)
		}
		return nil
	}
}

// scanRefs calls fn with every stored reference of the files, in order.
func scanRefs(ctx context.Context, q querier, files map[string]*fileFacts, order string, fn func(*fileFacts, rawRef)) error {
	return scanRows(ctx, q, `SELECT file, kind, by, target, symbol FROM idx_refs ORDER BY `+order, refRow(files, fn))
}

// refRow scans a row of idx_refs' columns and hands it to fn if its file
// is one of files.
func refRow(files map[string]*fileFacts, fn func(*fileFacts, rawRef)) func(*sql.Rows) error {
	return func(r *sql.Rows) error {
		var file string
		var ref rawRef
		if err := r.Scan(&file, &ref.Kind, &ref.By, &ref.Target, &ref.Symbol); err != nil {
			return err
		}
		if f := files[file]; f != nil {
			ref.Kind, ref.By = intern(ref.Kind), intern(ref.By)
			fn(f, ref)
		}
		return nil
	}
}

// kinds holds the few distinct kind strings a load meets, so that hundreds
// of thousands of facts share them instead of each holding a copy.
var kinds sync.Map

func intern(s string) string {
	if v, ok := kinds.Load(s); ok {
		return v.(string)
	}
	if len(s) > 32 {
		return s // not a kind: do not grow the table with it
	}
	v, _ := kinds.LoadOrStore(s, s)
	return v.(string)
}

// querier is a database, a connection or a transaction to read from.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func scanRows(ctx context.Context, q querier, query string, fn func(*sql.Rows) error) error {
	return scanRowsArgs(ctx, q, query, nil, fn)
}

func scanRowsArgs(ctx context.Context, q querier, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
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
// the old or the new facts of a file, never a mix. Fact rows are buffered and
// written many to a statement at commit: a cold index writes tens of
// thousands of them, and a statement per row cost more than the rows.
type writer struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
	rows  map[string][]any // table -> buffered column values, row after row
}

var writerStatements = map[string]string{
	"delFile":    `DELETE FROM idx_files WHERE path = ?`,
	"delSymbols": `DELETE FROM idx_symbols WHERE file = ?`,
	"delRefs":    `DELETE FROM idx_refs WHERE file = ?`,
	"delUsages":  `DELETE FROM idx_usages WHERE file = ?`,
	"insFile":    `INSERT INTO idx_files (path, hash, size, mtime, lang, parse_error, length, terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
	"touch":      `UPDATE idx_files SET size = ?, mtime = ? WHERE path = ?`,
}

// factTables are the tables of per-file facts and their columns.
var factTables = map[string]string{
	"idx_symbols": "file, name, kind, start_line, end_line, exported, container",
	"idx_refs":    "file, kind, by, target, symbol",
	"idx_usages":  "file, tag, start_line, end_line, attrs, anchor",
}

// rowsPerInsert bounds one multi-row INSERT (SQLite allows 32,766 values).
const rowsPerInsert = 128

func beginWriter(ctx context.Context, db *sql.DB) (*writer, error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	w := &writer{tx: tx, stmts: map[string]*sql.Stmt{}, rows: map[string][]any{}}
	for name, q := range writerStatements {
		st, err := tx.PrepareContext(ctx, q)
		if err != nil {
			w.rollback()
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
	// Buffered rows of an earlier put of the same path would outlive it.
	if err := w.flushRows(); err != nil {
		return err
	}
	for _, name := range []string{"delFile", "delSymbols", "delRefs", "delUsages"} {
		if err := w.exec(name, path); err != nil {
			return err
		}
	}
	return nil
}

// removeAll deletes the rows and facts of paths, many to a statement.
func (w *writer) removeAll(paths []string) error {
	if err := w.flushRows(); err != nil {
		return err
	}
	for len(paths) > 0 {
		n := min(len(paths), rowsPerInsert)
		args := make([]any, n)
		for i, p := range paths[:n] {
			args[i] = p
		}
		in := "(?" + strings.Repeat(", ?", n-1) + ")"
		for _, q := range []string{"DELETE FROM idx_files WHERE path IN ", "DELETE FROM idx_symbols WHERE file IN ", "DELETE FROM idx_refs WHERE file IN ", "DELETE FROM idx_usages WHERE file IN "} {
			if _, err := w.tx.Exec(q+in, args...); err != nil {
				return err
			}
		}
		paths = paths[n:]
	}
	return nil
}

// put writes a file's row and facts; the caller removed its old ones.
func (w *writer) put(f *fileFacts) error {
	if err := w.exec("insFile", f.Path, f.Hash, f.Size, f.ModTime, f.Lang, f.ParseError, f.Length, []byte(f.Terms)); err != nil {
		return err
	}
	for _, s := range f.Symbols {
		w.rows["idx_symbols"] = append(w.rows["idx_symbols"], f.Path, s.Name, s.Kind, s.StartLine, s.EndLine, s.Exported, s.Container)
	}
	for _, r := range f.Refs {
		w.rows["idx_refs"] = append(w.rows["idx_refs"], f.Path, r.Kind, r.By, r.Target, r.Symbol)
	}
	for _, u := range f.Usages {
		w.rows["idx_usages"] = append(w.rows["idx_usages"], f.Path, u.Tag, u.StartLine, u.EndLine, u.Attrs, u.Anchor)
	}
	return nil
}

// flushRows writes the buffered fact rows, rowsPerInsert to a statement.
func (w *writer) flushRows() error {
	for table, vals := range w.rows {
		cols := factTables[table]
		width := strings.Count(cols, ",") + 1
		for len(vals) > 0 {
			n := min(len(vals)/width, rowsPerInsert)
			key := fmt.Sprintf("%s/%d", table, n)
			st := w.stmts[key]
			if st == nil {
				row := "(?" + strings.Repeat(", ?", width-1) + ")"
				var err error
				st, err = w.tx.Prepare("INSERT INTO " + table + " (" + cols + ") VALUES " + row + strings.Repeat(", "+row, n-1))
				if err != nil {
					return err
				}
				w.stmts[key] = st
			}
			if _, err := st.Exec(vals[:n*width]...); err != nil {
				return err
			}
			vals = vals[n*width:]
		}
		delete(w.rows, table)
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

// commit writes the buffered rows, moves the index to its next generation
// and commits; it returns that generation.
func (w *writer) commit() (int64, error) {
	if err := w.flushRows(); err != nil {
		w.rollback()
		return 0, err
	}
	var generation int64
	if err := w.tx.QueryRow(bumpGeneration).Scan(&generation); err != nil {
		w.rollback()
		return 0, err
	}
	for _, st := range w.stmts {
		st.Close()
	}
	return generation, w.tx.Commit()
}

func (w *writer) rollback() {
	for _, st := range w.stmts {
		st.Close()
	}
	w.tx.Rollback()
}
