package graph

import (
	"context"
	"slices"
	"time"
)

// SyncSummary reports one sync.
type SyncSummary struct {
	Backend  string         `json:"backend"`
	Groups   int            `json:"groups"`
	Changed  int            `json:"changed"`
	Removed  int            `json:"removed"`
	Nodes    int            `json:"nodesWritten"`
	Edges    int            `json:"edgesWritten"`
	Seeds    int            `json:"seedRows"`
	Counts   map[string]int `json:"nodes,omitempty"`
	Problems []Problem      `json:"problems,omitempty"`
	Seconds  float64        `json:"seconds"`
	// Unchanged says the sync built nothing: neither the index nor a file
	// the builder reads changed since the sync that wrote the graph as it
	// stands (this Builder's last, or the one whose stamp the store holds;
	// after the latter, Problems are not known and left empty).
	Unchanged bool `json:"unchanged,omitempty"`
	// Built is how many files' groups the sync built: the others' the
	// Builder's memo held (a new process reads it from Options.MemoFile).
	Built int `json:"groupsBuilt"`
	// MemoError says why Options.MemoFile could not be read or written:
	// it costs the next sync only the building the memo would spare.
	MemoError string `json:"memoError,omitempty"`
}

// Sync brings the graph up to date with the index, the seeds and the prose
// documents: constraints first, then every group whose facts changed since
// the last sync, and removal of groups whose source is gone. Every seed row
// is validated before anything is written, so an invalid seed fails the
// sync and leaves the graph as it was. Groups are built one at a time and
// only the changed ones are held, up to Options.HeldRows, then written as one
// change; a larger change (a cold or full sync) is written as it is built,
// nodes first and edges in a second pass (syncWrite). A BatchStore (the
// embedded graph, Neo4j) is written in transactions of at most
// Options.BatchRows rows, so a cold sync never holds the runtime
// database's write lock, or one huge server transaction, for long; a change
// that small is one transaction. full rewrites every group (the "drop and
// reload" of a team graph).
func Sync(ctx context.Context, s Store, ix CodeIndex, o Options, full bool) (*SyncSummary, error) {
	bl := NewBuilder(o)
	defer bl.Wait()
	return bl.Sync(ctx, s, ix, full)
}

// Sync is the package Sync with the Builder's memo: a long-lived process
// (serve) pays for building only the files that changed. When ix is
// Versioned it pays nothing while nothing the facts come from changed, and
// when ix is also a Digester, a new process pays nothing for a graph the
// last sync wrote from this same index (SourceSyncStamp).
func (bl *Builder) Sync(ctx context.Context, s Store, ix CodeIndex, full bool) (*SyncSummary, error) {
	start := time.Now()
	var stamp *sourceStamp
	if v, ok := ix.(Versioned); ok {
		stamp = bl.stamp(s, ix, v, bl.synced)
		if !full && stamp.holds(bl.synced) {
			return bl.unchanged(start), nil
		}
	}
	bl.synced = nil // until this sync has written the graph
	if err := s.EnsureSchema(ctx); err != nil {
		return nil, err
	}
	var key string
	if d, ok := ix.(Digester); ok && stamp != nil {
		key = bl.persistentKey(stamp, d.Digest(), ix.Root())
	}
	seeds, err := LoadSeeds(ix.Root())
	if err != nil {
		return nil, err
	}
	if sh, ok := s.(StampReader); ok && !full && key != "" {
		hash, groups, err := sh.SourceHash(ctx, SourceSyncStamp)
		if err != nil {
			return nil, err
		}
		if hash == key {
			bl.synced = stamp
			bl.syncedSum = SyncSummary{Groups: groups - 1, Seeds: len(seeds)}
			return bl.unchanged(start), nil
		}
	}
	stored, err := s.Hashes(ctx)
	if err != nil {
		return nil, err
	}
	if !full && key != "" && stored[SourceSyncStamp] == key {
		bl.synced = stamp
		bl.syncedSum = SyncSummary{Groups: len(stored) - 1, Seeds: len(seeds)}
		return bl.unchanged(start), nil
	}
	w := &syncWrite{ctx: ctx, s: s, stored: stored, full: full, batchRows: bl.o.BatchRows, maxHeld: bl.o.HeldRows, seen: map[string]bool{}}
	u := bl.newUniverse(ix)
	bl.readMemo()
	problems, err := bl.each(ix, u, seeds, nil, w.needs, w.take)
	if err != nil {
		return nil, err
	}
	// A second pass builds again only the groups whose nodes the first
	// wrote, from the same universe, so every edge it writes ends at a
	// node already stored.
	err = w.finish(func(want func(string) bool) error {
		_, err := bl.each(ix, u, seeds, want, func(string, string) bool { return true }, w.takeWhole)
		return err
	})
	if err != nil {
		return nil, err
	}
	if key != "" && w.stored[SourceSyncStamp] != key {
		if err := s.Apply(ctx, Change{Groups: []Group{{Source: SourceSyncStamp, Hash: key}}}); err != nil {
			return nil, err
		}
	}
	sum := &SyncSummary{Groups: len(w.seen), Seeds: len(seeds), Problems: problems, Built: bl.built,
		Changed: w.changed, Removed: w.removed, Nodes: w.nodes, Edges: w.edges}
	bl.writeMemo()
	sum.MemoError = bl.takeMemoErr() // the read's, or an earlier write's
	sum.Seconds = time.Since(start).Seconds()
	bl.synced, bl.syncedSum = stamp, *sum
	return sum, nil
}

// unchanged is the summary of a sync that built nothing: the graph's as
// the last sync that built it reported.
func (bl *Builder) unchanged(start time.Time) *SyncSummary {
	sum := bl.syncedSum
	sum.Problems = slices.Clone(sum.Problems)
	sum.Changed, sum.Removed, sum.Nodes, sum.Edges, sum.Built, sum.Unchanged = 0, 0, 0, 0, 0, true
	sum.Seconds = time.Since(start).Seconds()
	return &sum
}
