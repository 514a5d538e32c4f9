package indexer

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// view holds lookups derived from the per-file facts. It is immutable once
// published, so readers share it without locks; a refresh publishes a new
// one. After a few files changed content the new view is derived from the
// previous one (update), so a refresh costs what changed, not the tree.
//
// The two lookups (edgesFrom, edgesTo) of a view read back from
// Options.ViewCache are derived from its lists on first use (lookups):
// ranking and the knowledge graph read the lists only, so a new process's
// first turn does not derive them. Every reader of a lookup calls lookups
// first.
type view struct {
	files      []string
	symbols    []Symbol
	edges      []Edge
	edgesFrom  map[string][]Edge // file -> its edges, by target
	edgesTo    map[string][]Edge // file -> edges into it, by source
	usages     []Usage
	corpus     *Corpus
	generation uint64 // see Index.Generation
	// unindexed: the lookups are still to be derived (a view read back);
	// indexOnce derives them once, whichever reader comes first.
	unindexed bool
	indexOnce sync.Once
}

// lookups returns v with its lookups derived.
func (v *view) lookups() *view {
	if v.unindexed {
		v.indexOnce.Do(v.index)
	}
	return v
}

// maxIncremental bounds how many changed files are folded into the previous
// view; past it a full build is about as cheap and simpler. A large tree
// folds in more (incrementalLimit): a full build there reads every file's
// facts back first, and a new process whose view was read back pays that
// for a checkout that changed 200 of 47,870 files (8.6 s and 626 MB for
// its first turn, against 1.3 s for 50).
const maxIncremental = 64

// incrementalLimit is how many changed files a view of files files folds
// in: maxIncremental, or a sixteenth of the tree if that is more.
func incrementalLimit(files int) int { return max(maxIncremental, files/16) }

// delta is what changed in the files since a view was built: files whose
// content changed and files removed (with their facts in that view), and
// files added.
type delta struct {
	changed map[string]*fileFacts
	removed map[string]*fileFacts
	added   map[string]bool
}

func (d *delta) size() int { return len(d.changed) + len(d.removed) + len(d.added) }

// current returns the view, deriving it from the facts if they changed
// since the last one.
func (ix *Index) current() *view {
	ix.mu.RLock()
	v, dirty := ix.view, ix.pending.size() > 0
	ix.mu.RUnlock()
	if v != nil && !dirty {
		return v
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	published := ix.view
	switch n := ix.pending.size(); {
	case ix.view == nil:
	case n > incrementalLimit(len(ix.view.files)):
		ix.view = nil
	case n > 0:
		ix.view, _ = ix.update() // nil when it cannot: built below
		if ix.view != nil {
			ix.derivedViews++
		}
	}
	pending := ix.pending
	ix.pending = delta{}
	if ix.view == nil && !ix.loaded && published == nil {
		ix.view = ix.readViewCache()
	}
	if ix.view == nil {
		ix.ensureLoaded()
		if err := ix.readRefs(nil); err != nil {
			// The references were dropped and the database moved since:
			// build from its facts, as a new process would.
			ix.loaded = false
			ix.ensureLoaded()
		}
		if published != nil {
			ix.restoreTerms(published.corpus, &pending)
		}
		cfg := loadProjectConfig(ix.opts.Root)
		ix.view, ix.res = buildView(ix.files, cfg)
		ix.dropTerms(ix.view.files)
		ix.dropRefs()
		ix.writeViewCacheLater(ix.view, cfg)
	} else if ix.view != published {
		var paths []string
		for p := range pending.changed {
			paths = append(paths, p)
		}
		for p := range pending.added {
			paths = append(paths, p)
		}
		ix.dropTerms(paths)
		ix.dropRefs()
	}
	if ix.view != published {
		ix.generations++
		ix.view.generation = ix.generations
	}
	return ix.view
}

// Generation identifies the view Files, AllSymbols, Edges and Usages read:
// it changes whenever a refresh changed a file's facts, and only then, so
// what is derived from the view (the knowledge graph's facts) need not be
// derived again while it holds. It is local to this Index.
func (ix *Index) Generation() uint64 { return ix.current().generation }

// Digest identifies across processes what the view is built from: every
// indexed file's path, content hash, language and parse error. Two
// processes of one mcpc build with equal digests serve the same facts, so
// a new serve process can tell that the knowledge graph it finds was
// synced from this very index without building it again.
func (ix *Index) Digest() string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.filesDigest()
}

// filesDigest is Digest, computed once per state of the files: a new
// process asks for it to key its stored view, then for the graph's stamp,
// then for every turn's, and at 47,550 files each sort and hash of the
// paths cost 25-30 ms. Only a write that replaces or removes a file's
// facts (Index.writes) changes what it hashes; the caller holds ix.mu
// either way.
func (ix *Index) filesDigest() string {
	ix.digestMu.Lock()
	defer ix.digestMu.Unlock()
	if ix.digest == "" || ix.digestAt != ix.writes {
		ix.digest, ix.digestAt = stampDigest(ix.files), ix.writes
	}
	return ix.digest
}

// stampDigest is Digest of files.
func stampDigest(files map[string]*fileFacts) string {
	paths := slices.Sorted(maps.Keys(files))
	h := sha256.New()
	var buf []byte
	for _, p := range paths {
		f := files[p]
		buf = buf[:0]
		for _, s := range [...]string{f.Path, f.Hash, f.Lang, f.ParseError} {
			buf = strconv.AppendInt(buf, int64(len(s)), 10)
			buf = append(append(buf, ':'), s...)
		}
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// noteChanged records, before the facts of path are replaced, what they
// were (nil for a file the index did not hold); the caller holds ix.mu.
func (ix *Index) noteChanged(path string, old *fileFacts) {
	d := &ix.pending
	switch {
	case old == nil && d.removed[path] != nil:
		// Gone and back since the view: a change of content.
		if d.changed == nil {
			d.changed = map[string]*fileFacts{}
		}
		d.changed[path] = d.removed[path]
		delete(d.removed, path)
	case old == nil:
		if d.added == nil {
			d.added = map[string]bool{}
		}
		d.added[path] = true
	case d.added[path]:
	case d.changed[path] == nil:
		if d.changed == nil {
			d.changed = map[string]*fileFacts{}
		}
		d.changed[path] = old
	}
}

// noteRemoved records, before path leaves the index, its facts; the caller
// holds ix.mu.
func (ix *Index) noteRemoved(path string, old *fileFacts) {
	d := &ix.pending
	if d.added[path] {
		delete(d.added, path) // never in the view
		return
	}
	if was := d.changed[path]; was != nil {
		old = was
		delete(d.changed, path)
	}
	if d.removed == nil {
		d.removed = map[string]*fileFacts{}
	}
	d.removed[path] = old
}

func buildView(files map[string]*fileFacts, cfg projectConfig) (*view, *resolver) {
	v := &view{}
	for p := range files {
		v.files = append(v.files, p)
	}
	sort.Strings(v.files)
	// The corpus needs only the files' terms: it is built beside the
	// resolution, on another core, and both only read the facts.
	corpus := make(chan *Corpus, 1)
	go func() { corpus <- buildCorpus(files, v.files) }()
	v.collect(files)
	r := newResolver(files, v.files, v.symbols, cfg)
	v.edgesFrom = r.resolveAll()
	v.edgesTo = map[string][]Edge{}
	for _, p := range v.files {
		for _, e := range v.edgesFrom[p] {
			v.edgesTo[e.To] = append(v.edgesTo[e.To], e)
		}
	}
	v.joinEdges()
	v.corpus = <-corpus
	return v, r
}

// collect concatenates every file's symbols and usages in path order, and
// makes each file's facts its runs of the view's lists: the facts and the
// view had each held a copy of every symbol and usage. A run is capped at
// its length, so appending to a file's facts cannot write into the view.
func (v *view) collect(files map[string]*fileFacts) {
	nSym, nUse := 0, 0
	for _, p := range v.files {
		nSym += len(files[p].Symbols)
		nUse += len(files[p].Usages)
	}
	v.symbols, v.usages = make([]Symbol, 0, nSym), make([]Usage, 0, nUse)
	for _, p := range v.files {
		f := files[p]
		if n := len(f.Symbols); n > 0 {
			v.symbols = append(v.symbols, f.Symbols...)
			f.Symbols = v.symbols[len(v.symbols)-n : len(v.symbols) : len(v.symbols)]
		}
		if n := len(f.Usages); n > 0 {
			v.usages = append(v.usages, f.Usages...)
			f.Usages = v.usages[len(v.usages)-n : len(v.usages) : len(v.usages)]
		}
	}
}

// joinEdges lays the per-file edges out in one slice, by source then
// target, and makes each file's edgesFrom its run of it: the per-file
// slices (or the previous view's, which a derived view's edgesFrom had
// kept alive) were a second copy of every edge. v.edgesFrom is the view's
// own map (built or cloned for it).
func (v *view) joinEdges() {
	n := 0
	for _, es := range v.edgesFrom {
		n += len(es)
	}
	v.edges = make([]Edge, 0, n)
	for _, p := range v.files {
		if es := v.edgesFrom[p]; len(es) > 0 {
			v.edges = append(v.edges, es...)
			v.edgesFrom[p] = v.edges[len(v.edges)-len(es) : len(v.edges) : len(v.edges)]
		}
	}
}

// update derives the next view from the previous one after the pending
// changes. The caller holds ix.mu.
func (ix *Index) update() (*view, bool) {
	prev, r, d := ix.view.lookups(), ix.res, &ix.pending
	touched := map[string]*fileFacts{} // every path that changed -> its facts in prev (nil if new)
	for p, old := range d.changed {
		touched[p] = old
	}
	for p, old := range d.removed {
		touched[p] = old
	}
	for p := range d.added {
		touched[p] = nil
	}
	for p := range touched {
		if isProjectConfig(p) {
			return nil, false // import aliases may have moved: resolve all
		}
	}
	files := prev.files
	if len(d.added)+len(d.removed) > 0 {
		files = make([]string, 0, len(prev.files)+len(d.added))
		for _, p := range prev.files {
			if d.removed[p] == nil {
				files = append(files, p)
			}
		}
		for p := range d.added {
			files = append(files, p)
		}
		sort.Strings(files)
	}
	if len(d.added)+len(d.removed) > 0 && ix.readRefs(nil) != nil {
		return nil, false // r.update reads every file's module-like references
	}
	reresolve, ok := r.update(d, files)
	if !ok {
		return nil, false
	}
	for p := range d.removed {
		for _, e := range prev.edgesTo[p] {
			if d.removed[e.From] == nil {
				reresolve[e.From] = true
			}
		}
	}
	if ix.readRefs(slices.Collect(maps.Keys(reresolve))) != nil {
		return nil, false
	}

	v := &view{files: files}
	v.collect(ix.files)

	v.edgesFrom, v.edgesTo = maps.Clone(prev.edgesFrom), maps.Clone(prev.edgesTo)
	targets := map[string]bool{}
	for p := range d.removed {
		for _, e := range prev.edgesFrom[p] {
			targets[e.To] = true
		}
		delete(v.edgesFrom, p)
		delete(v.edgesTo, p)
	}
	for from := range reresolve {
		if r.files[from] == nil {
			continue // removed in the same delta (a .gitignore that drops a folder), its edges with it
		}
		for _, e := range prev.edgesFrom[from] {
			targets[e.To] = true
		}
		edges := r.resolveFile(from)
		if len(edges) > 0 {
			v.edgesFrom[from] = edges
		} else {
			delete(v.edgesFrom, from)
		}
		for _, e := range edges {
			targets[e.To] = true
		}
	}
	for to := range targets {
		if d.removed[to] != nil {
			continue
		}
		var in []Edge
		for _, e := range prev.edgesTo[to] {
			if !reresolve[e.From] && d.removed[e.From] == nil {
				in = append(in, e)
			}
		}
		for from := range reresolve {
			for _, e := range v.edgesFrom[from] {
				if e.To == to {
					in = append(in, e)
				}
			}
		}
		// By source in path order, each source's edges in their order.
		sort.SliceStable(in, func(i, j int) bool { return in[i].From < in[j].From })
		if len(in) > 0 {
			v.edgesTo[to] = in
		} else {
			delete(v.edgesTo, to)
		}
	}
	v.joinEdges()
	v.corpus = prev.corpus.update(d, ix.files, files)
	return v, true
}

// isProjectConfig reports whether file is one loadProjectConfig reads.
func isProjectConfig(file string) bool {
	switch path.Base(file) {
	case "tsconfig.base.json", "tsconfig.json", "jsconfig.json":
		return !strings.Contains(file, "/")
	}
	return false
}
