package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"weak"

	"github.com/mcpc/mcpc/internal/buildid"
)

// A serving process's first view was most of its first turn on a large
// tree: at 47,550 files reading every fact row (0.9 CPU-s), resolving every
// reference and building the lexical corpus (0.7 s more), and holding the
// facts afterwards. The view is a function of the indexed files' contents,
// of the project configuration that resolution reads and of mcpc's code, so
// a process that built one stores it (Options.ViewCache) under a key of
// those three, and the next process whose stamps give the same key reads it
// back instead: the facts stay in the database until a change needs them.
//
// A view read back has no facts and no resolver behind it. The first
// change a refresh writes reads them, before it writes (backStoredView),
// and the view is derived from there as any other: at 47,550 files that
// is the facts' read (0.9 CPU-s) and the resolver's tables, not the
// whole build again. TestViewCacheMatchesBuiltView holds the views equal.
//
// The file is mcpc's own state beside its database (.ai/tmp), trusted as
// the database is; it is still checked whole (a CRC over every byte) and
// every count and string number is bounded by what is left, so a damaged
// or truncated file is a miss, never a wrong view or a panic.

// viewKey is what a stored view is valid for: this build, the files'
// digest (Index.filesDigest) and the project configuration read from root.
func viewKey(digest string, cfg projectConfig) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\n%s\n%s\n", viewCacheVersion, buildid.Identity(), digest)
	for _, a := range cfg.aliases {
		fmt.Fprintf(h, "%q %q\n", a.pattern, a.targets)
	}
	fmt.Fprintf(h, "%q\n", cfg.baseURL)
	return hex.EncodeToString(h.Sum(nil))
}

// viewPrefetch is a stored view being read while the first refresh walks
// the tree: on two cores the walk and the read (0.6 and 0.45 CPU-s at
// 47,550 files) overlap instead of adding up.
type viewPrefetch struct {
	done   chan struct{}
	v      *view
	err    error
	writes int // Index.writes when it began
}

// prefetchView starts reading the view stored for the files as Open found
// them; the caller is Open, before the index is shared.
func (ix *Index) prefetchView() {
	if ix.opts.ViewCache == "" || ix.opts.CountsFromStore {
		return
	}
	p := &viewPrefetch{done: make(chan struct{}), writes: ix.writes}
	key := viewKey(ix.filesDigest(), loadProjectConfig(ix.opts.Root))
	ix.prefetched = p
	ix.background.Go(func() {
		defer close(p.done)
		p.v, p.err = loadView(ix.opts.ViewCache, key)
	})
}

// readViewCache returns the view stored for the files as they stand, or nil;
// the caller holds ix.mu for writing. The prefetched one is for the files
// as they stood at Open: it holds while no refresh has changed a file since.
func (ix *Index) readViewCache() *view {
	if ix.opts.ViewCache == "" {
		return nil
	}
	var v *view
	var err error
	if p := ix.prefetched; p != nil && p.writes == ix.writes {
		ix.prefetched = nil
		<-p.done
		v, err = p.v, p.err
	} else {
		ix.prefetched = nil
		key := viewKey(ix.filesDigest(), loadProjectConfig(ix.opts.Root))
		v, err = loadView(ix.opts.ViewCache, key)
	}
	if err != nil {
		ix.viewCacheErr = fmt.Errorf("indexer: read the stored view: %w", err) // a miss; the next build rewrites it
		return nil
	}
	if v != nil {
		ix.storedViewHits++
		ix.storedAs = weak.Make(v)
	}
	return v
}

// writeViewCacheLater stores v, just built from the facts of ix.files, in the
// background; the caller holds ix.mu for writing. Close waits for it.
func (ix *Index) writeViewCacheLater(v *view, cfg projectConfig) {
	if ix.opts.ViewCache == "" {
		return
	}
	key := viewKey(ix.filesDigest(), cfg)
	ix.storedAs = weak.Make(v)
	ix.background.Go(func() { ix.keepView(key, v) })
}

// ViewCacheErr returns the last error reading or writing Options.ViewCache,
// or writing the stamps blob (stampcache.go): each only costs the next
// process a view built from the facts or the stamps read row by row.
func (ix *Index) ViewCacheErr() error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.viewCacheErr
}

// backStoredView reads the facts and makes the resolver a view read back
// from Options.ViewCache was built with, so that the change about to be
// written derives the next view from it; the caller holds ix.mu for
// writing, before the change is in the database. When the database moved
// since Open (another process wrote), its facts are not the view's: the
// view is dropped and the next one built from them.
func (ix *Index) backStoredView() {
	if ix.loaded || ix.view == nil {
		return
	}
	if ix.loadFacts(ix.view); !ix.loaded || ix.generation < 0 { // the view's corpus holds the terms
		ix.view = nil
		return
	}
	ix.res = newResolver(ix.files, ix.view.files, ix.view.symbols, loadProjectConfig(ix.opts.Root))
	ix.dropRefs() // resolved into the view's edges already
}

// storeChangedView stores the view if it is not the one last stored or
// read back: one derived after changes, which the next process would
// otherwise build from the facts again. Close calls it, so a process pays
// for one store however many changes it derived views for (at 47,550
// files a store is about 0.3 CPU-s).
func (ix *Index) storeChangedView() {
	if ix.opts.ViewCache == "" {
		return
	}
	ix.mu.Lock()
	v := ix.view
	if v == nil || v == ix.storedAs.Value() || ix.pending.size() > 0 {
		ix.mu.Unlock()
		return // nothing built, nothing new, or not up to date with the files
	}
	key := viewKey(ix.filesDigest(), loadProjectConfig(ix.opts.Root))
	ix.storedAs = weak.Make(v)
	ix.mu.Unlock()
	ix.keepView(key, v)
}

// keepView writes v under key to Options.ViewCache, keeping a failure for
// ViewCacheErr; the caller does not hold ix.mu.
func (ix *Index) keepView(key string, v *view) {
	if err := storeView(ix.opts.ViewCache, key, v); err != nil {
		ix.mu.Lock()
		ix.viewCacheErr = fmt.Errorf("indexer: store the view: %w", err)
		ix.mu.Unlock()
	}
}
