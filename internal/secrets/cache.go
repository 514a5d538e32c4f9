package secrets

import (
	"cmp"
	"context"
	"crypto/sha256"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Store keeps a Cache's content between processes: Load returns what Save
// last stored (nothing, or content that does not decode, leaves every
// content to be scanned again). Both report their own failures: a verdict
// not kept only costs a scan in the next process. Save must replace the
// content whole (a temporary file renamed over it), so that processes
// saving at once leave one's content, never a mix. What it stores must be
// out of an agent's reach (mcpc's state folder), or an agent could mark a
// secret clean.
type Store interface {
	Load() []byte
	Save(data []byte)
}

// Cache is a Detector's findings kept by content: the SHA-256 of the bytes
// scanned, under the rule set's identity. A new process scanning content
// an earlier one scanned reads the verdict instead of running the rules
// (a pack's 40 files cost 0.2 to 0.4 CPU-s), and does not build the
// detector at all when every verdict is kept.
//
// Verdicts are by content, never by file stamp: changed content has
// another hash, so it is scanned. A scan cut short (IncompleteRule) is
// never kept. It is safe for concurrent use.
type Cache struct {
	store  Store
	header string
	build  func() (*Detector, error)
	now    func() time.Time

	saving  sync.Mutex // one Save at a time
	mu      sync.Mutex
	loaded  bool
	entries map[digest]verdict
	dirty   bool // entries holds what the store does not

	hits, scans atomic.Int64
}

type digest = [sha256.Size]byte

// verdict is one content's findings and when a process last used them
// (Unix seconds), which decides what is dropped past maxCacheEntries.
type verdict struct {
	findings []Finding
	used     int64
}

// maxCacheEntries bounds the verdicts kept: a pack scans about 40 files
// and an escalation a few more, so this is some hundred turns' worth of
// distinct content. The least recently used go first.
const maxCacheEntries = 4096

// maxCachedFindings bounds one verdict's findings; content with more (a
// dump of keys) is scanned each time rather than bloating the store.
const maxCachedFindings = 32

// usedRefresh is how stale a verdict's use time may get before a hit
// refreshes it: each refresh costs a Save, so hits within a day write
// nothing.
const usedRefresh = 24 * 60 * 60

// NewCache keeps the default rules' verdicts in store; the detector is
// Default, built only when a content is not in the cache.
func NewCache(store Store) *Cache { return newCache(store, defaultRules, Default) }

func newCache(store Store, rs ruleSet, build func() (*Detector, error)) *Cache {
	return &Cache{store: store, header: cacheHeader(rs.identity()), build: build, now: time.Now, entries: map[digest]verdict{}}
}

// CacheStats counts a Cache's answers since it was made: Hits from kept
// verdicts, Scans made by running the rules.
type CacheStats struct{ Hits, Scans int64 }

func (c *Cache) Stats() CacheStats { return CacheStats{Hits: c.hits.Load(), Scans: c.scans.Load()} }

// ScanContext is Detector.ScanContext answered from the cache when it can.
// The error is the detector's, when it could not be built; the content is
// then unscanned. The findings returned are the caller's to keep.
func (c *Cache) ScanContext(ctx context.Context, content []byte) ([]Finding, error) {
	sum := contentDigest(content)
	if got, ok := c.lookup(sum); ok {
		c.hits.Add(1)
		return got, nil
	}
	det, err := c.build()
	if err != nil {
		return nil, err
	}
	c.scans.Add(1)
	found := det.ScanContext(ctx, content)
	c.keep(sum, found)
	return found, nil
}

// contentDigest is the SHA-256 of what a scan reads of content: all of it
// up to MaxScanBytes. Past the cap the findings depend on the content to
// the cap and on there being more, so such content is hashed as its first
// MaxScanBytes and one byte 1: no content within the cap has that length,
// and hashing a huge content stays cheap.
func contentDigest(content []byte) digest {
	if len(content) <= MaxScanBytes {
		return sha256.Sum256(content)
	}
	h := sha256.New()
	h.Write(content[:MaxScanBytes])
	h.Write([]byte{1})
	return digest(h.Sum(nil))
}

func (c *Cache) lookup(sum digest) ([]Finding, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.loadLocked()
	v, ok := c.entries[sum]
	if !ok {
		return nil, false
	}
	if now := c.now().Unix(); now-v.used > usedRefresh {
		v.used = now
		c.entries[sum] = v
		c.dirty = true
	}
	return slices.Clone(v.findings), true
}

// keep stores a complete scan's findings.
func (c *Cache) keep(sum digest, found []Finding) {
	if len(found) > maxCachedFindings || slices.ContainsFunc(found, func(f Finding) bool { return f.RuleID == IncompleteRule }) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[sum] = verdict{findings: slices.Clone(found), used: c.now().Unix()}
	c.dirty = true
	if len(c.entries) > maxCacheEntries+maxCacheEntries/4 {
		// A long-lived process scanning ever new content: trimmed now and
		// then rather than on each scan.
		trim(c.entries, maxCacheEntries)
	}
}

// loadLocked reads the store once, on the first lookup.
func (c *Cache) loadLocked() {
	if c.loaded {
		return
	}
	c.loaded = true
	if got, ok := decodeVerdicts(c.store.Load(), c.header); ok {
		c.entries = got
	} else {
		// Nothing kept, another rule set's, or damaged: whatever this
		// process scans replaces it.
		c.dirty = true
	}
}

// Save stores the verdicts when this process added to them, merged with
// what the store holds now (another process's verdicts are as true as
// this one's: they are by content), the least recently used dropped past
// maxCacheEntries. Call it after a batch of scans, not after each.
func (c *Cache) Save() {
	c.saving.Lock()
	defer c.saving.Unlock()
	c.mu.Lock()
	if !c.dirty {
		c.mu.Unlock()
		return
	}
	c.dirty = false
	kept := maps.Clone(c.entries)
	c.mu.Unlock()
	// The store's reading and writing is outside mu: scans of another turn
	// need not wait for it.
	if disk, ok := decodeVerdicts(c.store.Load(), c.header); ok {
		for sum, v := range disk {
			if mine, ok := kept[sum]; !ok || mine.used < v.used {
				kept[sum] = v
			}
		}
	}
	trim(kept, maxCacheEntries)
	c.store.Save(encodeVerdicts(c.header, kept))
}

// trim drops the least recently used entries past max (ties by digest, so
// processes agree on what is dropped).
func trim(entries map[digest]verdict, max int) {
	if len(entries) <= max {
		return
	}
	sums := make([]digest, 0, len(entries))
	for sum := range entries {
		sums = append(sums, sum)
	}
	slices.SortFunc(sums, func(a, b digest) int {
		if ua, ub := entries[a].used, entries[b].used; ua != ub {
			return cmp.Compare(ub, ua) // most recent first
		}
		return slices.Compare(a[:], b[:])
	})
	for _, sum := range sums[max:] {
		delete(entries, sum)
	}
}
