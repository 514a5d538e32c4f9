package store

import "sync"

// revCacheSize bounds each cache; a process serves a handful of works.
const revCacheSize = 64

// revCache holds values read for a work at one revision of its row. A
// revision names one committed content across processes, so an entry is
// valid exactly while the row's revision is unchanged. Only values read
// back from the database go in: a write may still roll back, and its
// revision could then come to name another process's content.
type revCache[V any] struct {
	mu      sync.Mutex
	entries map[string]revEntry[V]
	clone   func(V) V // what callers get, so they may modify their copy
}

type revEntry[V any] struct {
	rev int64
	val V
}

func (c *revCache[V]) get(id string, rev int64) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[id]
	if !ok || e.rev != rev {
		var zero V
		return zero, false
	}
	return c.clone(e.val), true
}

func (c *revCache[V]) put(id string, rev int64, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= revCacheSize {
		c.entries = map[string]revEntry[V]{}
	}
	c.entries[id] = revEntry[V]{rev, c.clone(v)}
}

// cloneWork is a shallow copy: callers set fields (state, pack) on theirs
// but never mutate the shared slices in place.
func cloneWork(w *Work) *Work {
	cp := *w
	return &cp
}

// cloneNodes copies the list; callers update statuses in their copy.
func cloneNodes(n []Node) []Node { return append([]Node(nil), n...) }
