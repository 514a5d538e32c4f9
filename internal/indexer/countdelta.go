package indexer

import (
	"context"
	"database/sql"
	"maps"
	"sort"
	"strings"
)

// countChange lets `mcpc index` derive its counts after a few files
// changed content instead of resolving every reference of the tree again
// (2.7 of the 5.6 CPU-s of one changed file at 47,550 files). A file's
// edges depend on its own references, on which files exist and on the
// names files define (definers, selectors, Go modules) and on the import
// aliases. When no file was added or removed, none of the changed files is
// a project config and each defines the same names as before, only the
// changed files' own edges can have changed: the new counts are the stored
// ones plus, for each changed file, its new counts less its old, both
// resolved against the same tables. Anything else is recounted in full.
type countChange struct {
	ok    bool  // every change so far can be derived
	from  int64 // the generation before the refresh's first write
	files map[string]*fileCountChange
}

// fileCountChange is one changed file's facts that its counts depend on,
// before and after.
type fileCountChange struct {
	oldRefs, newRefs       []rawRef
	oldNames, newNames     map[string]map[string]bool // contributions
	oldSymbols, newSymbols int
	oldUsages, newUsages   int
}

// maxDerivedCounts bounds the changed files whose old facts a refresh
// reads to derive the counts; past it a recount is about as cheap.
const maxDerivedCounts = 64

// newCountChange starts the record of a refresh of an index without a view.
func (ix *Index) newCountChange() *countChange {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return &countChange{
		ok:    ix.opts.CountsFromStore && !ix.loaded && ix.generation >= 0,
		from:  ix.generation,
		files: map[string]*fileCountChange{},
	}
}

// note records, before batch is written, the old and new facts of its
// re-parsed files, or gives up on deriving.
func (cc *countChange) note(ctx context.Context, ix *Index, batch []result) error {
	if !cc.ok {
		return nil
	}
	var paths []string
	ix.mu.RLock()
	for _, r := range batch {
		if r.touched {
			continue
		}
		if ix.files[r.rel] == nil || isProjectConfig(r.rel) {
			cc.ok = false // a new file, or new aliases
		}
		paths = append(paths, r.rel)
	}
	ix.mu.RUnlock()
	if !cc.ok || len(paths) == 0 {
		return nil
	}
	if len(cc.files)+len(paths) > maxDerivedCounts {
		cc.ok = false
		return nil
	}
	old := map[string]*fileFacts{}
	for _, p := range paths {
		old[p] = &fileFacts{Path: p}
	}
	// The file index serves these lookups; a write by another process
	// in between breaks the generation chain and so the derivation.
	if err := loadFactsOf(ctx, ix.db, old, paths); err != nil {
		return err
	}
	for _, r := range batch {
		if r.touched {
			continue
		}
		was, now := old[r.rel], r.facts
		c := &fileCountChange{
			oldRefs: was.Refs, newRefs: now.Refs,
			oldNames: contributions(was.Symbols), newNames: contributions(now.Symbols),
			oldSymbols: len(was.Symbols), newSymbols: len(now.Symbols),
			oldUsages: len(was.Usages), newUsages: len(now.Usages),
		}
		if !sameContributions(c.oldNames, c.newNames) {
			cc.ok = false
			return nil
		}
		cc.files[r.rel] = c
	}
	return nil
}

func sameContributions(a, b map[string]map[string]bool) bool {
	for _, kind := range []string{"module", "selector", "definer"} {
		if !maps.Equal(a[kind], b[kind]) {
			return false
		}
	}
	return true
}

// loadFactsOf reads the symbols, references and usages of paths into
// files, through the tables' file index.
func loadFactsOf(ctx context.Context, q querier, files map[string]*fileFacts, paths []string) error {
	for len(paths) > 0 {
		n := min(len(paths), rowsPerInsert)
		in := " WHERE file IN (?" + strings.Repeat(", ?", n-1) + ") ORDER BY " + pathOrder
		args := make([]any, n)
		for i, p := range paths[:n] {
			args[i] = p
		}
		if err := scanRowsArgs(ctx, q, `SELECT file, name, kind, start_line, end_line, exported, container FROM idx_symbols`+in, args, symbolRow(files, func(f *fileFacts, s Symbol) { f.Symbols = append(f.Symbols, s) })); err != nil {
			return err
		}
		if err := scanRowsArgs(ctx, q, `SELECT file, kind, by, target, symbol FROM idx_refs`+in, args, refRow(files, func(f *fileFacts, ref rawRef) { f.Refs = append(f.Refs, ref) })); err != nil {
			return err
		}
		if err := scanRowsArgs(ctx, q, `SELECT file FROM idx_usages`+in, args, func(r *sql.Rows) error {
			var file string
			if err := r.Scan(&file); err != nil {
				return err
			}
			if f := files[file]; f != nil {
				f.Usages = append(f.Usages, Usage{File: file})
			}
			return nil
		}); err != nil {
			return err
		}
		paths = paths[n:]
	}
	return nil
}

// derive returns the counts after the recorded changes, if they can be
// derived from the stored ones: those must be of the generation before
// the refresh's first write, and every write since must be the index's own.
func (cc *countChange) derive(ctx context.Context, ix *Index) (factCounts, bool, error) {
	var c factCounts
	ix.mu.RLock()
	generation := ix.generation
	ix.mu.RUnlock()
	if !cc.ok || generation < 0 || generation == cc.from {
		return c, false, nil // nothing written: the stored counts are read as they are
	}
	derived := false
	err := readSnapshot(ctx, ix.db, func(q querier) error {
		meta, err := readMeta(ctx, q)
		if err != nil {
			return err
		}
		if meta[metaGeneration] != generation {
			return nil
		}
		if at, ok := meta[metaCountsGeneration]; !ok || at != cc.from {
			return nil
		}
		c = factCounts{Symbols: int(meta[metaSymbols]), Edges: int(meta[metaEdges]), Usages: int(meta[metaUsages])}
		derived = true
		if len(cc.files) == 0 {
			return nil // only touches and walk problems written
		}
		r, err := cc.resolver(ctx, q, ix)
		if err != nil {
			return err
		}
		for p, f := range cc.files {
			c.Symbols += f.newSymbols - f.oldSymbols
			c.Usages += f.newUsages - f.oldUsages
			c.Edges += len(r.resolveRefs(p, f.newRefs)) - len(r.resolveRefs(p, f.oldRefs))
		}
		return nil
	})
	if err != nil || !derived {
		return c, false, err
	}
	return c, true, storeCounts(ctx, ix.db, generation, c)
}

// resolver builds the tables the changed files' references can reach: the
// file set, the definers and selectors of the names they name, and the Go
// modules if they import packages.
func (cc *countChange) resolver(ctx context.Context, q querier, ix *Index) (*resolver, error) {
	ix.mu.RLock()
	files := maps.Clone(ix.files)
	ix.mu.RUnlock()
	order := make([]string, 0, len(files))
	for p := range files {
		order = append(order, p)
	}
	sort.Strings(order)
	r := newResolver(files, order, nil, loadProjectConfig(ix.opts.Root))
	names := map[string]bool{}
	goPackages := false
	for _, f := range cc.files {
		for _, ref := range append(append([]rawRef(nil), f.oldRefs...), f.newRefs...) {
			switch ref.By {
			case "symbol", "selector":
				names[ref.Target] = true
			case "gopkg":
				goPackages = true
			}
		}
	}
	add := symbolRow(files, func(_ *fileFacts, s Symbol) { r.addSymbol(s) })
	list := make([]any, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].(string) < list[j].(string) })
	for len(list) > 0 {
		n := min(len(list), rowsPerInsert)
		query := `SELECT file, name, kind, start_line, end_line, exported, container FROM idx_symbols WHERE name IN (?` + strings.Repeat(", ?", n-1) + `) ORDER BY ` + pathOrder
		if err := scanRowsArgs(ctx, q, query, list[:n], add); err != nil {
			return nil, err
		}
		list = list[n:]
	}
	if goPackages {
		query := `SELECT file, name, kind, start_line, end_line, exported, container FROM idx_symbols WHERE kind = 'go_module' ORDER BY ` + pathOrder
		if err := scanRowsArgs(ctx, q, query, nil, add); err != nil {
			return nil, err
		}
	}
	return r, nil
}
