package graph

import (
	"context"
	"slices"
	"sort"
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
}

// Sync brings the graph up to date with the index, the seeds and the prose
// documents: constraints first, then every group whose facts changed since
// the last sync, and removal of groups whose source is gone. Every seed row
// is validated and every fact built before anything is written, so an
// invalid seed fails the sync and leaves the graph as it was. A BatchStore
// (the embedded graph, Neo4j) is written in transactions of at most
// Options.BatchRows rows, so a cold sync never holds the runtime
// database's write lock, or one huge server transaction, for long; a change
// that small is one transaction. Other backends write it in one transaction. full rewrites every group
// (the "drop and reload" of a team graph).
func Sync(ctx context.Context, s Store, ix CodeIndex, o Options, full bool) (*SyncSummary, error) {
	return NewBuilder(o).Sync(ctx, s, ix, full)
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
	stored, err := s.Hashes(ctx)
	if err != nil {
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
	if !full && key != "" && stored[SourceSyncStamp] == key {
		bl.synced = stamp
		bl.syncedSum = SyncSummary{Groups: len(stored) - 1, Seeds: len(seeds)}
		return bl.unchanged(start), nil
	}
	facts, err := bl.factsFor(stamp, ix, seeds)
	if err != nil {
		return nil, err
	}
	sum := &SyncSummary{Groups: len(facts.Groups), Seeds: len(seeds), Problems: facts.Problems}
	c := changeOf(facts, stored, full)
	sum.Changed, sum.Removed = len(c.Groups), len(c.Remove)
	for _, g := range c.Groups {
		sum.Nodes += len(g.Nodes)
		sum.Edges += len(g.Edges)
	}
	if len(c.Groups) > 0 || len(c.Remove) > 0 {
		// The stamp goes first: a write cut short must not leave the
		// graph looking like the one the stamp describes.
		if _, had := stored[SourceSyncStamp]; had {
			if err := s.Apply(ctx, Change{Remove: []string{SourceSyncStamp}}); err != nil {
				return nil, err
			}
			delete(stored, SourceSyncStamp)
		}
		if bs, ok := s.(BatchStore); ok {
			err = bs.ApplyBatched(ctx, c, bl.o.BatchRows)
		} else {
			err = s.Apply(ctx, c)
		}
		if err != nil {
			return nil, err
		}
	}
	if key != "" && stored[SourceSyncStamp] != key {
		if err := s.Apply(ctx, Change{Groups: []Group{{Source: SourceSyncStamp, Hash: key}}}); err != nil {
			return nil, err
		}
	}
	sum.Seconds = time.Since(start).Seconds()
	bl.synced, bl.syncedSum = stamp, *sum
	bl.built, bl.builtFrom = nil, nil // written: synced stands for them
	return sum, nil
}

// factsFor builds the facts stamp describes, or takes those the last
// build made from the same stamp when their write did not finish: at
// 48,000 files on a loaded machine a build can outrun the turn's deadline
// for the sync, and building again every turn, each to fail the same way,
// never wrote the graph at all.
func (bl *Builder) factsFor(stamp *sourceStamp, ix CodeIndex, seeds []SeedRow) (*Facts, error) {
	if stamp != nil && stamp.holds(bl.builtFrom) {
		return bl.built, nil
	}
	facts, err := bl.Build(ix, seeds)
	if err != nil {
		return nil, err
	}
	if stamp != nil {
		bl.built, bl.builtFrom = facts, stamp
	}
	return facts, nil
}

// changeOf is what must be written for the store to hold facts: every
// group whose hash differs (every group when full), and the removal of
// stored groups no longer built.
func changeOf(facts *Facts, stored map[string]string, full bool) Change {
	var c Change
	for _, src := range sortedSources(facts.Groups) {
		if g := facts.Groups[src]; full || stored[src] != g.Hash {
			c.Groups = append(c.Groups, *g)
		}
	}
	for src := range stored {
		if facts.Groups[src] == nil && src != SourceSyncStamp {
			c.Remove = append(c.Remove, src)
		}
	}
	sort.Strings(c.Remove)
	return c
}

// unchanged is the summary of a sync that built nothing: the graph's as
// the last sync that built it reported.
func (bl *Builder) unchanged(start time.Time) *SyncSummary {
	sum := bl.syncedSum
	sum.Problems = slices.Clone(sum.Problems)
	sum.Changed, sum.Removed, sum.Nodes, sum.Edges, sum.Unchanged = 0, 0, 0, 0, true
	sum.Seconds = time.Since(start).Seconds()
	return &sum
}

func sortedSources(m map[string]*Group) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
