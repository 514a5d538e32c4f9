package graph

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/mcpc/mcpc/internal/store"
)

// embeddedSchema keeps the graph in the runtime database next to the code
// index, so every mcpc process of the workspace shares it and nothing needs
// installing. Properties are JSON; lookups go by id, (label, key), source
// and edge ends.
const embeddedSchema = `
CREATE TABLE IF NOT EXISTS gr_nodes (
	id     TEXT PRIMARY KEY,
	label  TEXT NOT NULL,
	key    TEXT NOT NULL,
	source TEXT NOT NULL,
	props  TEXT NOT NULL,
	gen    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS gr_nodes_label_key ON gr_nodes(label, key);
CREATE INDEX IF NOT EXISTS gr_nodes_source ON gr_nodes(source, gen);
CREATE TABLE IF NOT EXISTS gr_edges (
	src    TEXT NOT NULL,
	type   TEXT NOT NULL,
	dst    TEXT NOT NULL,
	source TEXT NOT NULL,
	props  TEXT NOT NULL,
	PRIMARY KEY (src, type, dst)
);
CREATE INDEX IF NOT EXISTS gr_edges_dst ON gr_edges(dst, type);
CREATE INDEX IF NOT EXISTS gr_edges_source ON gr_edges(source);
CREATE TABLE IF NOT EXISTS gr_sources (
	source TEXT PRIMARY KEY,
	hash   TEXT NOT NULL
);
`

// Embedded is the graph in the runtime SQLite database.
type Embedded struct {
	db *sql.DB
}

// OpenEmbedded uses db (the runtime store's database); Close does not close
// it.
func OpenEmbedded(db *sql.DB) *Embedded { return &Embedded{db: db} }

// EnsureSchema creates the gr_ tables and indexes.
func (g *Embedded) EnsureSchema(ctx context.Context) error {
	return store.RetryBusy(ctx, func() error {
		_, err := g.db.ExecContext(ctx, embeddedSchema)
		return err
	})
}

// Close is a no-op: the database belongs to the runtime store.
func (g *Embedded) Close() error { return nil }

// Hashes returns the stored sources and their hashes.
func (g *Embedded) Hashes(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	rows, err := g.db.QueryContext(ctx, `SELECT source, hash FROM gr_sources`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var s, h string
		if err := rows.Scan(&s, &h); err != nil {
			return nil, err
		}
		out[s] = h
	}
	return out, rows.Err()
}

// SourceHash implements StampReader.
func (g *Embedded) SourceHash(ctx context.Context, source string) (string, int, error) {
	var hash string
	var n int
	err := g.db.QueryRowContext(ctx, `SELECT coalesce((SELECT hash FROM gr_sources WHERE source = ?), ''), (SELECT count(*) FROM gr_sources)`, source).Scan(&hash, &n)
	return hash, n, err
}

var embeddedStatements = map[string]string{
	"delGroupEdges": `DELETE FROM gr_edges WHERE source = ?`,
	"upNode": `INSERT INTO gr_nodes (id, label, key, source, props, gen) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(id) DO UPDATE SET label = excluded.label, key = excluded.key, source = excluded.source, props = excluded.props, gen = excluded.gen`,
	"delStaleOut": `DELETE FROM gr_edges WHERE src IN (SELECT id FROM gr_nodes WHERE source = ? AND gen <> ?)`,
	"delStaleIn":  `DELETE FROM gr_edges WHERE dst IN (SELECT id FROM gr_nodes WHERE source = ? AND gen <> ?)`,
	"delStale":    `DELETE FROM gr_nodes WHERE source = ? AND gen <> ?`,
	"upEdge": `INSERT INTO gr_edges (src, type, dst, source, props)
		SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM gr_nodes WHERE id = ?1) AND EXISTS (SELECT 1 FROM gr_nodes WHERE id = ?3)
		ON CONFLICT(src, type, dst) DO UPDATE SET source = excluded.source, props = excluded.props`,
	"upSource":  `INSERT INTO gr_sources (source, hash) VALUES (?, ?) ON CONFLICT(source) DO UPDATE SET hash = excluded.hash`,
	"delSource": `DELETE FROM gr_sources WHERE source = ?`,
}

// Apply writes a change in one immediate transaction: readers in other
// processes see the graph before or after it, never between.
func (g *Embedded) Apply(ctx context.Context, c Change) error {
	w, err := newEmbeddedWrite(c)
	if err != nil {
		return err
	}
	return g.inTx(ctx, func(exec execFunc) error {
		for _, step := range w.steps() {
			if err := step.run(exec); err != nil {
				return err
			}
		}
		return nil
	})
}

// execFunc runs one of embeddedStatements in the current transaction.
type execFunc func(name string, args ...any) error

// inTx runs fn in one write transaction with embeddedStatements prepared,
// retried while SQLite reports the database busy.
func (g *Embedded) inTx(ctx context.Context, fn func(execFunc) error) error {
	return store.RetryBusy(ctx, func() (err error) {
		tx, err := g.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer func() {
			if err != nil {
				tx.Rollback()
			}
		}()
		st := map[string]*sql.Stmt{}
		for name, q := range embeddedStatements {
			s, err := tx.PrepareContext(ctx, q)
			if err != nil {
				return fmt.Errorf("graph: prepare %s: %w", name, err)
			}
			defer s.Close()
			st[name] = s
		}
		if err := fn(func(name string, args ...any) error {
			_, err := st[name].ExecContext(ctx, args...)
			return err
		}); err != nil {
			return err
		}
		return tx.Commit()
	})
}

// Node returns one node.
func (g *Embedded) Node(ctx context.Context, id string) (Node, bool, error) {
	var n Node
	var props string
	err := g.db.QueryRowContext(ctx, `SELECT id, label, key, source, props FROM gr_nodes WHERE id = ?`, id).
		Scan(&n.ID, &n.Label, &n.Key, &n.Source, &props)
	if err == sql.ErrNoRows {
		return Node{}, false, nil
	}
	if err != nil {
		return Node{}, false, err
	}
	n.Props, err = DecodeProps(props)
	return n, err == nil, err
}

// Nodes returns the nodes of a label by key prefix.
func (g *Embedded) Nodes(ctx context.Context, label, keyPrefix string, limit int) ([]Node, error) {
	if err := CheckName(label); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = -1
	}
	// A range on key rather than LIKE: the prefix is data, not a pattern,
	// and the range uses the (label, key) index.
	q := `SELECT id, label, key, source, props FROM gr_nodes WHERE label = ? AND key >= ?`
	args := []any{label, keyPrefix}
	if keyPrefix != "" {
		q += ` AND key < ?`
		args = append(args, prefixEnd(keyPrefix))
	}
	q += ` ORDER BY key, id LIMIT ?`
	args = append(args, limit)
	rows, err := g.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Node
	for rows.Next() {
		var n Node
		var props string
		if err := rows.Scan(&n.ID, &n.Label, &n.Key, &n.Source, &props); err != nil {
			return nil, err
		}
		if n.Props, err = DecodeProps(props); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// prefixEnd is the smallest string greater than every string starting with
// p, for a range scan; p is non-empty.
func prefixEnd(p string) string { return p + "\U0010FFFF" }

// Edges returns the edges of a node in one direction.
func (g *Embedded) Edges(ctx context.Context, id string, dir Direction, types ...string) ([]Edge, error) {
	near, far := "src", "dst"
	if dir == In {
		near, far = "dst", "src"
	}
	q := `SELECT src, type, dst, source, props FROM gr_edges WHERE ` + near + ` = ?`
	args := []any{id}
	if len(types) > 0 {
		q += ` AND type IN (?` + strings.Repeat(`, ?`, len(types)-1) + `)`
		for _, t := range types {
			args = append(args, t)
		}
	}
	q += ` ORDER BY type, ` + far
	rows, err := g.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Edge
	for rows.Next() {
		var e Edge
		var props string
		if err := rows.Scan(&e.From, &e.Type, &e.To, &e.Source, &props); err != nil {
			return nil, err
		}
		if e.Props, err = DecodeProps(props); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Counts returns nodes per label and edges per type.
func (g *Embedded) Counts(ctx context.Context) (map[string]int, map[string]int, error) {
	count := func(q string) (map[string]int, error) {
		out := map[string]int{}
		rows, err := g.db.QueryContext(ctx, q)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, rows.Err()
	}
	nodes, err := count(`SELECT label, COUNT(*) FROM gr_nodes GROUP BY label`)
	if err != nil {
		return nil, nil, err
	}
	edges, err := count(`SELECT type, COUNT(*) FROM gr_edges GROUP BY type`)
	return nodes, edges, err
}
