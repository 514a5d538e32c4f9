package indexer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"github.com/mcpc/mcpc/internal/store"
)

// An Index opens with its files' stamps only (loadStamps) and reads their
// facts the first time a view is needed (ensureLoaded). Until then a
// refresh writes each batch and keeps only the new stamps, so a cold build
// never holds the tree's facts in memory: `mcpc index` on 47,550 files had
// peaked at 570-600 MiB holding them and the view built from them.
//
// A refresh reports counts that need the facts (symbols, edges, usages).
// A serving process counts them from the view it queries anyway; `mcpc
// index` (Options.CountsFromStore) counts them from the database,
// resolving references one file at a time (streamEdges), and keeps them in
// idx_meta under the index generation they were computed at. Every write
// transaction bumps the generation, so a refresh that changed nothing
// reads them back instead of resolving the tree.
//
// A serving process stores its view's counts after each of its writes, so
// that the next process finds them fresh, but only while its facts are
// known to be those of the database (Index.generation): another process's
// write in between leaves them to be counted from the database.

// Keys of idx_meta.
const (
	metaGeneration       = "generation"        // bumped by every write transaction
	metaCountsGeneration = "counts_generation" // the generation the counts below are of
	metaSymbols          = "symbols"
	metaEdges            = "edges"
	metaUsages           = "usages"
)

const bumpGeneration = `INSERT INTO idx_meta (key, value) VALUES ('` + metaGeneration + `', 1)
	ON CONFLICT (key) DO UPDATE SET value = value + 1 RETURNING value`

// factCounts are the totals of a Summary that need the facts.
type factCounts struct {
	Symbols, Edges, Usages int
}

// ensureLoaded reads the facts of the indexed files if they are not in
// memory yet; the caller holds ix.mu for writing. A failed load is kept
// and returned by the next Refresh, and tried again by the next view.
func (ix *Index) ensureLoaded() { ix.loadFacts(nil) }

// loadFacts is ensureLoaded. Beside a view read back from
// Options.ViewCache (from), whose corpus holds the terms and whose lists
// hold every file's symbols and usages, it reads only the references the
// resolver's users come from (loadUsersBeside), and each file's symbols
// and usages are its runs of those lists: read again from the database
// they had been a second copy of every symbol (some 50 MB at 47,550
// files) in the process that first changed a file.
func (ix *Index) loadFacts(from *view) {
	if ix.loaded {
		return
	}
	ctx := context.Background()
	err := readSnapshot(ctx, ix.db, func(q querier) error {
		meta, err := readMeta(ctx, q)
		if err != nil {
			return err
		}
		if meta[metaGeneration] != ix.generation {
			ix.generation = -1 // the facts may be newer than the stamps
		}
		switch {
		case from == nil:
			return loadFacts(ctx, q, ix.files, true)
		case ix.generation < 0: // not from's facts: the caller drops from
			return loadFacts(ctx, q, ix.files, false)
		}
		return loadUsersBeside(ctx, q, ix.files, from)
	})
	if err != nil {
		ix.loadErr = fmt.Errorf("indexer: load the index: %w", err)
		return
	}
	for _, f := range ix.files {
		f.refsUnread = false
	}
	ix.loaded, ix.loadErr, ix.termsDropped, ix.refsDropped = true, nil, from != nil, false
}

// loadUsersBeside reads the symbol and selector references of the files,
// the only ones a resolver built beside v reads (its users: the files to
// re-resolve when a name's definers change), and gives each file its
// symbols and usages from v, which was built from these very facts (its
// key digests every file's content hash). The caller drops the references
// once the resolver holds their users, as after any view is derived
// (dropRefs): a later change reads those it re-resolves. At 47,870 files
// they are 46,000 of 390,000 references; reading them all had been 0.6
// CPU-s, and their garbage, of a new process's first turn after one edit.
// A run is capped at its length, so appending to a file's facts cannot
// write into the next file's.
func loadUsersBeside(ctx context.Context, q querier, files map[string]*fileFacts, v *view) error {
	for _, f := range files { // what an earlier, failed load left
		f.Terms, f.Symbols, f.Refs, f.Usages = nil, nil, nil, nil
	}
	// Only By and Target make a user (resolver.addUsers); the covering
	// index idx_refs_users answers without reading the table.
	err := scanRows(ctx, q, `SELECT file, by, target FROM idx_refs WHERE by IN ('symbol', 'selector')`, func(r *sql.Rows) error {
		var file string
		var ref rawRef
		if err := r.Scan(&file, &ref.By, &ref.Target); err != nil {
			return err
		}
		if f := files[file]; f != nil {
			ref.By = intern(ref.By)
			f.Refs = append(f.Refs, ref)
		}
		return nil
	})
	if err != nil {
		return err
	}
	syms, usages := v.symbols, v.usages
	for _, p := range v.files {
		var symRun []Symbol
		var useRun []Usage
		symRun, syms = FileRun(syms, p, func(s *Symbol) string { return s.File })
		useRun, usages = FileRun(usages, p, func(u *Usage) string { return u.File })
		if f := files[p]; f != nil {
			f.Symbols, f.Usages = symRun, useRun
		}
	}
	return nil
}

// sharedRefs hands fn references whose targets and symbols are shared
// among the references of one load: 390,000 references at 47,550 files
// name 7,500 distinct targets and 4,700 symbols, and each had held its own
// copy (some 30 MB).
func sharedRefs(fn func(*fileFacts, rawRef)) func(*fileFacts, rawRef) {
	seen := map[string]string{}
	share := func(s string) string {
		if c, ok := seen[s]; ok {
			return c
		}
		seen[s] = s
		return s
	}
	return func(f *fileFacts, ref rawRef) {
		ref.Target, ref.Symbol = share(ref.Target), share(ref.Symbol)
		fn(f, ref)
	}
}

// FileRun splits a path-ordered list (the index's symbols, edges by
// source, usages) after file's run, skipping entries before it: asked for
// files in path order, it hands out each file's facts without copying or
// regrouping them. The run is capped at its length, so appending to it
// cannot write into the list, and nil when empty.
func FileRun[T any](list []T, file string, key func(*T) string) (run, rest []T) {
	i := 0
	for i < len(list) && key(&list[i]) < file {
		i++
	}
	j := i
	for j < len(list) && key(&list[j]) == file {
		j++
	}
	if i == j {
		return nil, list[j:]
	}
	return list[i:j:j], list[j:]
}

// takeLoadError returns the error of a failed lazy load, once, and drops
// the view built without the facts so the next one loads again.
func (ix *Index) takeLoadError() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	err := ix.loadErr
	if err != nil {
		ix.loadErr, ix.view, ix.pending = nil, nil, delta{}
	}
	return err
}

// committed records that the index's own write moved the database to
// generation; the caller holds ix.mu for writing.
func (ix *Index) committed(generation int64) {
	if ix.generation < 0 || generation != ix.generation+1 {
		ix.generation = -1 // another process wrote in between
		return
	}
	ix.generation = generation
}

// readSnapshot runs fn on one connection inside a deferred (read)
// transaction: its queries see one state of the database however other
// processes write meanwhile.
func readSnapshot(ctx context.Context, db *sql.DB, fn func(querier) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN DEFERRED"); err != nil {
		return err
	}
	err = fn(conn)
	if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); err == nil {
		err = rerr
	}
	return err
}

// storedCounts returns the fact counts of the index as stored, computing
// and storing them first if the stored ones are of an older generation.
func (ix *Index) storedCounts(ctx context.Context) (factCounts, error) {
	var c factCounts
	var generation int64
	fresh := false
	err := readSnapshot(ctx, ix.db, func(q querier) error {
		meta, err := readMeta(ctx, q)
		if err != nil {
			return err
		}
		generation = meta[metaGeneration]
		if at, ok := meta[metaCountsGeneration]; ok && at == generation {
			c = factCounts{Symbols: int(meta[metaSymbols]), Edges: int(meta[metaEdges]), Usages: int(meta[metaUsages])}
			fresh = true
			return nil
		}
		ix.recounts++
		c, err = countFacts(ctx, q, ix.opts.Root)
		return err
	})
	if err != nil || fresh {
		return c, err
	}
	return c, storeCounts(ctx, ix.db, generation, c)
}

func readMeta(ctx context.Context, q querier) (map[string]int64, error) {
	meta := map[string]int64{}
	err := scanRows(ctx, q, `SELECT key, value FROM idx_meta`, func(r *sql.Rows) error {
		var k string
		var v int64
		if err := r.Scan(&k, &v); err != nil {
			return err
		}
		meta[k] = v
		return nil
	})
	return meta, err
}

// storeCounts records counts as those of generation, unless a write
// moved the index past it meanwhile.
func storeCounts(ctx context.Context, db *sql.DB, generation int64, c factCounts) error {
	return store.RetryBusy(ctx, func() error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		var now int64
		err = tx.QueryRowContext(ctx, `SELECT value FROM idx_meta WHERE key = ?`, metaGeneration).Scan(&now)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if now != generation {
			return nil
		}
		for k, v := range map[string]int64{metaCountsGeneration: generation, metaSymbols: int64(c.Symbols), metaEdges: int64(c.Edges), metaUsages: int64(c.Usages)} {
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO idx_meta (key, value) VALUES (?, ?)`, k, v); err != nil {
				return err
			}
		}
		return tx.Commit()
	})
}

// countFacts counts the stored symbols, usages and resolved edges.
func countFacts(ctx context.Context, q querier, root string) (factCounts, error) {
	var c factCounts
	files, _, err := loadStamps(ctx, q)
	if err != nil {
		return c, err
	}
	err = streamEdges(ctx, q, files, root, func(s Symbol) { c.Symbols++ }, func(_ string, edges []Edge) { c.Edges += len(edges) })
	if err != nil {
		return c, err
	}
	err = scanRows(ctx, q, `SELECT file FROM idx_usages`, func(r *sql.Rows) error {
		var file string
		if err := r.Scan(&file); err != nil {
			return err
		}
		if files[file] != nil {
			c.Usages++
		}
		return nil
	})
	return c, err
}

// streamEdges resolves the stored references of files (stamps, keyed by
// path) as a view would, holding the symbol tables but only one file's
// references at a time: it calls symbol with every symbol and edges with
// every file's edges, in path order.
func streamEdges(ctx context.Context, q querier, files map[string]*fileFacts, root string, symbol func(Symbol), edges func(string, []Edge)) error {
	order := make([]string, 0, len(files))
	for p := range files {
		order = append(order, p)
	}
	sort.Strings(order)
	r := newResolver(files, order, nil, loadProjectConfig(root))
	if err := scanSymbols(ctx, q, files, pathOrder, func(_ *fileFacts, s Symbol) {
		symbol(s)
		r.addSymbol(s)
	}); err != nil {
		return err
	}
	var from string
	var refs []rawRef
	flush := func() {
		if from != "" {
			edges(from, r.resolveRefs(from, refs))
		}
		refs = refs[:0]
	}
	if err := scanRefs(ctx, q, files, pathOrder, func(f *fileFacts, ref rawRef) {
		if f.Path != from {
			flush()
			from = f.Path
		}
		refs = append(refs, ref)
	}); err != nil {
		return err
	}
	flush()
	return nil
}
