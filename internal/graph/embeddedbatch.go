package graph

import (
	"context"
	"fmt"
	"time"
)

// DefaultBatchRows bounds the rows one write transaction of a batched
// apply writes: a cold sync of a large repository (tens of thousands of
// nodes and edges) must not hold the runtime database's write lock, which
// every turn needs, for the whole sync.
const DefaultBatchRows = 4000

// batchPause is the pause between two transactions of a batched apply.
// SQLite has no queue for its write lock: a writer that waits (a turn)
// polls for it, at most 100 ms apart once it has waited a while, and would
// keep missing a lock that is released and taken again at once. A pause of
// one poll interval lets every waiting writer in between two batches.
const batchPause = 100 * time.Millisecond

// BatchStore is a Store that can write a large change in several bounded
// transactions (the embedded graph, which shares the runtime database with
// the turns, and neo4jstore). Everything that can fail on the change's content fails
// before the first transaction; a later I/O failure leaves the sources not
// yet written with their old hash, so the next sync writes them again.
// Readers may see a partly written change while it runs.
type BatchStore interface {
	ApplyBatched(ctx context.Context, c Change, maxRows int) error
}

// embeddedWrite is a change ready to write: validated, with every property
// already encoded, so nothing about its content can fail once writing
// starts.
type embeddedWrite struct {
	gen    int64
	groups []encodedGroup
	remove []string
}

type encodedGroup struct {
	source, hash string
	nodes        [][]any // upNode arguments
	edges        [][]any // upEdge arguments
}

func newEmbeddedWrite(c Change) (*embeddedWrite, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	w := &embeddedWrite{gen: time.Now().UnixNano(), remove: c.Remove}
	for _, grp := range c.Groups {
		eg := encodedGroup{source: grp.Source, hash: grp.Hash}
		for _, n := range grp.Nodes {
			props, err := encodeProps(n.Props)
			if err != nil {
				return nil, fmt.Errorf("graph: node %s: %w", n.ID, err)
			}
			eg.nodes = append(eg.nodes, []any{n.ID, n.Label, n.Key, n.Source, props, w.gen})
		}
		for _, e := range grp.Edges {
			props, err := encodeProps(e.Props)
			if err != nil {
				return nil, fmt.Errorf("graph: edge %s-%s->%s: %w", e.From, e.Type, e.To, err)
			}
			eg.edges = append(eg.edges, []any{e.From, e.Type, e.To, e.Source, props})
		}
		w.groups = append(w.groups, eg)
	}
	return w, nil
}

// writeStep is a unit of a write that is never split across transactions,
// with the rows it writes.
type writeStep struct {
	rows int
	run  func(execFunc) error
}

// steps are the write in order. Every changed group's nodes are written
// before any edge (an edge is stored only when both its ends exist), stale
// nodes of the written and removed sources are swept before edges are
// written, and a group's hash is written with its edges, last: a source
// whose hash is stored is complete.
func (w *embeddedWrite) steps() []writeStep {
	var out []writeStep
	for _, g := range w.groups {
		out = append(out, writeStep{rows: len(g.nodes) + 1, run: func(exec execFunc) error {
			if err := exec("delGroupEdges", g.source); err != nil {
				return err
			}
			for _, args := range g.nodes {
				if err := exec("upNode", args...); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	sweep := append([]string(nil), w.remove...)
	for _, g := range w.groups {
		sweep = append(sweep, g.source)
	}
	for _, src := range w.remove {
		out = append(out, writeStep{rows: 1, run: func(exec execFunc) error { return exec("delGroupEdges", src) }})
	}
	for _, src := range sweep {
		out = append(out, writeStep{rows: 1, run: func(exec execFunc) error {
			for _, name := range []string{"delStaleOut", "delStaleIn", "delStale"} {
				if err := exec(name, src, w.gen); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	for _, g := range w.groups {
		out = append(out, writeStep{rows: len(g.edges) + 1, run: func(exec execFunc) error {
			for _, args := range g.edges {
				if err := exec("upEdge", args...); err != nil {
					return err
				}
			}
			return exec("upSource", g.source, g.hash)
		}})
	}
	for _, src := range w.remove {
		out = append(out, writeStep{rows: 1, run: func(exec execFunc) error { return exec("delSource", src) }})
	}
	return out
}

// ApplyBatched writes c in transactions of about maxRows rows each (a
// group's nodes, or its edges, are never split), in the order of steps. A
// change of at most maxRows rows is one transaction, as Apply.
func (g *Embedded) ApplyBatched(ctx context.Context, c Change, maxRows int) error {
	if maxRows <= 0 {
		maxRows = DefaultBatchRows
	}
	w, err := newEmbeddedWrite(c)
	if err != nil {
		return err
	}
	steps := w.steps()
	for start := 0; start < len(steps); {
		end, rows := start, 0
		for end < len(steps) && (end == start || rows+steps[end].rows <= maxRows) {
			rows += steps[end].rows
			end++
		}
		batch := steps[start:end]
		if start > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(batchPause):
			}
		}
		if err := g.inTx(ctx, func(exec execFunc) error {
			for _, step := range batch {
				if err := step.run(exec); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
		start = end
	}
	return nil
}
