package indexer

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"weak"
)

// Index is the in-memory view of the persistent code index of one
// workspace. It is safe for concurrent use; Refresh brings it and the
// database up to date with the files on disk.
type Index struct {
	db   *sql.DB
	opts Options

	refreshMu sync.Mutex          // one Refresh at a time per Index
	listings  map[string]*listing // directories of the last walk; under refreshMu
	watched   watchState          // Options.Watch's watcher (watch.go); under refreshMu
	// listingsRead: the first walk asked for the listings a previous
	// process left (listingcache.go); listingsChanged: a walk since
	// listed a directory, so Close leaves them anew. Under refreshMu.
	listingsRead, listingsChanged bool

	mu sync.RWMutex
	// files holds every indexed file; until loaded only their stamps (the
	// row without its terms), see lazy.go.
	files  map[string]*fileFacts
	loaded bool // files hold their facts
	// termsDropped: the files a view was built from hold no term blobs
	// (dropTerms); their corpus does.
	termsDropped bool
	// refsDropped: files' references may be only in the database
	// (dropRefs).
	refsDropped bool
	loadErr     error // of a failed load, for the next Refresh
	// generation is the database's (see lazy.go) that files reflect, or
	// -1 when another process's write may have made them differ.
	generation int64
	// openedAt is the generation Open read the stamps at, stampsFromBlob
	// whether they came from the stamps blob (stampcache.go): Close leaves
	// a blob when they did not, or when the index wrote since.
	openedAt       int64
	stampsFromBlob bool
	problems       map[string]Problem // walk problems of the last refresh
	view           *view              // derived lookups, brought up to date lazily after changes
	res            *resolver          // the resolution tables view was built with
	// pending is what changed in files since view was built.
	pending delta
	// recounts counts summaries counted from the whole database (for
	// tests); under refreshMu.
	recounts int
	// derivedViews counts views derived from their predecessor rather
	// than built from scratch (for tests and benchmarks).
	derivedViews int
	// generations counts the views published (Generation).
	generations uint64
	// storedViewHits counts views read back from Options.ViewCache (for
	// tests and benchmarks); viewCacheErr is the last fault reading or
	// writing it; prefetched is the read Open began; background tracks
	// those reads and writes.
	storedViewHits int
	viewCacheErr   error
	prefetched     *viewPrefetch
	// storedAs is the view last stored or read back, held weakly: held,
	// it kept a replaced view (every list the first change derives anew)
	// alive for the life of the process.
	storedAs   weak.Pointer[view]
	background sync.WaitGroup
	// writes counts the refresh writes that changed or removed a file's
	// facts.
	writes int
	// digest is filesDigest's of files as they stood at writes digestAt.
	digestMu sync.Mutex
	digest   string
	digestAt int
}

// Open creates the idx_ tables in db if absent and reads the stamps of the
// indexed files; their facts are read when first needed.
func Open(db *sql.DB, opts Options) (*Index, error) {
	if opts.Root == "" || !filepath.IsAbs(opts.Root) {
		return nil, errors.New("indexer: Options.Root must be an absolute path")
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	ctx := context.Background()
	if err := createSchema(ctx, db); err != nil {
		return nil, err
	}
	ix := &Index{db: db, opts: opts}
	if opts.Watch && opts.WalkAtOpen && !opts.CountsFromStore {
		ix.refreshMu.Lock() // the first Refresh waits for the walk, then takes its listings
		go ix.walkEarly()
	}
	err := readSnapshot(ctx, db, func(q querier) error {
		meta, err := readMeta(ctx, q)
		if err != nil {
			return err
		}
		ix.generation = meta[metaGeneration]
		ix.files, ix.problems, ix.stampsFromBlob, err = loadStampsAt(ctx, q, ix.generation)
		ix.openedAt = ix.generation
		return err
	})
	if err != nil {
		return nil, errors.Join(err, ix.Close()) // Close waits for the walk and stops its watcher
	}
	ix.prefetchView()
	return ix, nil
}

// Root is the workspace root the index covers.
func (ix *Index) Root() string { return ix.opts.Root }

// Files lists the indexed files, repository-relative and sorted.
func (ix *Index) Files() []string { return ix.current().files }

// HasFile reports whether file is indexed.
func (ix *Index) HasFile(file string) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.files[file] != nil
}

// Symbols returns definitions named name; if there are none it falls back to
// a case-insensitive match. It scans the view's symbols (a lookup verb's
// cost: about a millisecond at 47,550 files): the two maps by name and by
// lower-case name it had read were a copy each of every symbol, 22 MB
// there, maintained at every change.
func (ix *Index) Symbols(name string) []Symbol {
	syms := ix.current().symbols
	var out []Symbol
	for _, s := range syms {
		if s.Name == name {
			out = append(out, s)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, s := range syms {
		if strings.EqualFold(s.Name, name) {
			out = append(out, s)
		}
	}
	return out
}

// AllSymbols returns every symbol of the index. The slice is shared: do not
// modify it.
func (ix *Index) AllSymbols() []Symbol { return ix.current().symbols }

// FileSymbols returns the definitions of one file in line order: the
// view's, which holds every file's in path order, so that a view read back
// from Options.ViewCache answers without the facts.
func (ix *Index) FileSymbols(file string) []Symbol {
	syms := ix.current().symbols
	lo, _ := slices.BinarySearchFunc(syms, file, func(s Symbol, f string) int { return strings.Compare(s.File, f) })
	hi := lo
	for hi < len(syms) && syms[hi].File == file {
		hi++
	}
	if lo == hi {
		return nil
	}
	return slices.Clone(syms[lo:hi])
}

// Neighbors returns the resolved edges into and out of file, by source
// then target.
func (ix *Index) Neighbors(file string) []Edge {
	v := ix.current().lookups()
	in, out := v.edgesTo[file], v.edgesFrom[file]
	edges := make([]Edge, 0, len(in)+len(out))
	i := 0
	for ; i < len(in) && in[i].From < file; i++ {
		edges = append(edges, in[i])
	}
	edges = append(edges, out...)
	return append(edges, in[i:]...)
}

// Edges returns every resolved edge. The slice is shared: do not modify it.
func (ix *Index) Edges() []Edge { return ix.current().edges }

// Usages returns template custom-element usages whose tag starts with
// tagPrefix ("" for all), in file and line order.
func (ix *Index) Usages(tagPrefix string) []Usage {
	var out []Usage
	for _, u := range ix.current().usages {
		if strings.HasPrefix(u.Tag, tagPrefix) {
			out = append(out, u)
		}
	}
	return out
}

// ParseFailures returns the parse failures among files, and walk problems
// (unreadable, binary, too large, ...) recorded for them.
func (ix *Index) ParseFailures(files []string) []Problem {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var out []Problem
	for _, file := range files {
		if f := ix.files[file]; f != nil && f.ParseError != "" {
			out = append(out, Problem{File: file, Kind: ProblemParseError, Message: f.ParseError})
		} else if p, ok := ix.problems[file]; ok {
			out = append(out, p)
		}
	}
	return out
}

// Problems returns every problem known to the index: walk problems and parse
// failures, sorted by file.
func (ix *Index) Problems() []Problem {
	ix.mu.RLock()
	out := []Problem{}
	for _, p := range ix.problems {
		out = append(out, p)
	}
	for _, f := range ix.files {
		if f.ParseError != "" {
			out = append(out, Problem{File: f.Path, Kind: ProblemParseError, Message: f.ParseError})
		}
	}
	ix.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].File < out[j].File })
	return out
}

// Lang returns the grammar a file was parsed with ("" for text-only files).
func (ix *Index) Lang(file string) string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if f := ix.files[file]; f != nil {
		return f.Lang
	}
	return ""
}

// Anchor returns the domain anchor of a file: its folder path up to three
// levels.
func Anchor(file string) string { return anchorOf(file) }
