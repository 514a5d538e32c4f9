package graph

import (
	"context"
	"slices"
	"strings"
	"time"
)

// DefaultHeldRows bounds the nodes and edges of changed groups a sync
// holds to write them in one change (Options.HeldRows). A sync after a few edits changes a few groups
// and writes them as one change (one transaction when small), as it always
// did; past this bound, a cold or full sync of a large tree, holding them
// all would hold the whole graph (at 48,000 files 116,000 nodes and
// 392,000 edges, about 600 MB as Go values), so the sync splits: it
// writes each changed group's nodes as it is built, and then builds those
// groups again to write their edges.
const DefaultHeldRows = 50_000

// nodesOnlyPrefix marks the stored hash of a group whose nodes a split
// sync wrote and whose edges it has not yet: the group reads as changed
// to any later sync (its hash is not the facts'), and a split sync that
// finds the mark with the hash it built does not write the nodes again.
const nodesOnlyPrefix = "nodes:"

// syncWrite is what one sync writes, gathered as the builder streams its
// groups: which sources it produced, the changed groups it holds and, once
// split, the sources whose nodes it wrote.
type syncWrite struct {
	ctx       context.Context
	s         Store
	stored    map[string]string
	full      bool
	batchRows int
	maxHeld   int
	seen      map[string]bool

	held     []Group
	heldRows int
	// split is set once the changed groups outgrow maxHeld; written are
	// then the changed sources whose nodes are (being) written.
	split   bool
	written map[string]bool
	batch   []Group
	rows    int
	writes  int // changes applied so far

	changed, removed, nodes, edges int
}

// needs reports whether a group with this hash must be written.
func (w *syncWrite) needs(src, hash string) bool { return w.full || w.stored[src] != hash }

// take is the first pass's sink: every group the builder produced, with
// g nil when the memo vouched for its hash.
func (w *syncWrite) take(src, hash string, g *Group) error {
	w.seen[src] = true
	if g == nil || !w.needs(src, hash) {
		return nil
	}
	w.changed++
	w.nodes += len(g.Nodes)
	w.edges += len(g.Edges)
	if !w.split {
		w.held = append(w.held, *g)
		if w.heldRows += len(g.Nodes) + len(g.Edges); w.heldRows <= w.maxHeld {
			return nil
		}
		w.split, w.written = true, map[string]bool{}
		held := w.held
		w.held = nil
		for i := range held {
			if err := w.nodesOf(&held[i]); err != nil {
				return err
			}
		}
		return nil
	}
	return w.nodesOf(g)
}

// nodesOf queues a changed group's nodes, without its edges and under the
// nodes-only mark, unless a split sync before this one wrote them already.
func (w *syncWrite) nodesOf(g *Group) error {
	w.written[g.Source] = true
	if !w.full && w.stored[g.Source] == nodesOnlyPrefix+g.Hash {
		return nil
	}
	return w.queue(Group{Source: g.Source, Hash: nodesOnlyPrefix + g.Hash, Nodes: g.Nodes}, len(g.Nodes))
}

// takeWhole is the second pass's sink: a group whose nodes the first
// wrote, now written whole under its hash.
func (w *syncWrite) takeWhole(src, _ string, g *Group) error {
	if g == nil || !w.written[src] {
		return nil
	}
	return w.queue(*g, len(g.Edges)+1)
}

func (w *syncWrite) queue(g Group, rows int) error {
	w.batch = append(w.batch, g)
	if w.rows += rows; w.rows >= w.batchRows {
		return w.flush()
	}
	return nil
}

// flush applies the queued groups.
func (w *syncWrite) flush() error {
	if len(w.batch) == 0 {
		return nil
	}
	err := w.apply(Change{Groups: w.batch})
	w.batch, w.rows = nil, 0
	return err
}

// finish writes what the first pass left: the held change with the
// removal of sources no longer built or, once split, the last nodes, then
// the edges (rebuild runs the second pass, building the groups want
// names), then the removal.
func (w *syncWrite) finish(rebuild func(want func(string) bool) error) error {
	var remove []string
	for src := range w.stored {
		if !w.seen[src] && src != SourceSyncStamp {
			remove = append(remove, src)
		}
	}
	slices.Sort(remove)
	w.removed = len(remove)
	if !w.split {
		slices.SortFunc(w.held, func(a, b Group) int { return strings.Compare(a.Source, b.Source) })
		if len(w.held) == 0 && len(remove) == 0 {
			return nil
		}
		err := w.apply(Change{Groups: w.held, Remove: remove})
		w.held = nil
		return err
	}
	if err := w.flush(); err != nil {
		return err
	}
	if err := rebuild(func(src string) bool { return w.written[src] }); err != nil {
		return err
	}
	if err := w.flush(); err != nil {
		return err
	}
	if len(remove) == 0 {
		return nil
	}
	return w.apply(Change{Remove: remove})
}

// apply writes one change: a BatchStore in bounded transactions, pausing
// between changes as it pauses between its transactions. The stamp goes
// before the first: a write cut short must not leave the graph looking
// like the one the stamp describes.
func (w *syncWrite) apply(c Change) error {
	if w.writes == 0 {
		if _, had := w.stored[SourceSyncStamp]; had {
			if err := w.s.Apply(w.ctx, Change{Remove: []string{SourceSyncStamp}}); err != nil {
				return err
			}
			delete(w.stored, SourceSyncStamp)
		}
	} else {
		select {
		case <-w.ctx.Done():
			return w.ctx.Err()
		case <-time.After(batchPause):
		}
	}
	w.writes++
	if bs, ok := w.s.(BatchStore); ok {
		return bs.ApplyBatched(w.ctx, c, w.batchRows)
	}
	return w.s.Apply(w.ctx, c)
}
