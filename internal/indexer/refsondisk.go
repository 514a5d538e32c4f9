package indexer

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
)

// A loaded index keeps a file's references from its parse (or its load)
// until the next view is derived, and then only in the database: once
// resolved into the view's edges they are read again only for the files a
// later change re-resolves, all of them when the file set changes, and
// when a view is built from scratch. Held, they were 390,000 references,
// some 60 MB, for the life of a process serving 47,550 files. The facts
// of a file whose references were dropped say so (refsUnread); a fresh
// parse holds its own until the next view is derived.

// errRefsMoved says the database is not at the generation the facts in
// memory are of: its references may be another process's.
var errRefsMoved = errors.New("indexer: the database changed since the references were dropped")

// dropRefs lets every file's references go; the caller holds ix.mu for
// writing, after deriving a view from them. Every fact in ix.files is in
// the database by then (apply writes before it publishes).
func (ix *Index) dropRefs() {
	if !ix.loaded {
		return
	}
	for _, f := range ix.files {
		f.Refs, f.refsUnread = nil, true
	}
	ix.refsDropped = true
}

// readRefs reads back the references of paths (nil: of every file) whose
// references were dropped; the caller holds ix.mu for writing. It fails
// with errRefsMoved when another process wrote the database since: the
// caller then builds from the database's facts.
func (ix *Index) readRefs(paths []string) error {
	if !ix.loaded || !ix.refsDropped {
		return nil
	}
	want := map[string]*fileFacts{}
	if paths == nil {
		for p, f := range ix.files {
			if f.refsUnread {
				want[p] = f
			}
		}
	} else {
		for _, p := range paths {
			if f := ix.files[p]; f != nil && f.refsUnread {
				want[p] = f
			}
		}
	}
	if len(want) == 0 {
		return nil
	}
	ctx := context.Background()
	fill := sharedRefs(func(f *fileFacts, ref rawRef) { f.Refs = append(f.Refs, ref) })
	err := readSnapshot(ctx, ix.db, func(q querier) error {
		meta, err := readMeta(ctx, q)
		if err != nil {
			return err
		}
		if ix.generation < 0 || meta[metaGeneration] != ix.generation {
			return errRefsMoved
		}
		if paths == nil || len(want) > len(ix.files)/2 {
			return scanRefs(ctx, q, want, writeOrder, fill) // one pass over the table
		}
		return scanRefsOf(ctx, q, want, slices.Sorted(maps.Keys(want)), fill)
	})
	for _, f := range want {
		if err != nil {
			f.Refs = nil
		} else {
			f.refsUnread = false
		}
	}
	return err
}

// scanRefsOf is scanRefs for paths, through the table's file index, each
// file's in the order written.
func scanRefsOf(ctx context.Context, q querier, files map[string]*fileFacts, paths []string, fn func(*fileFacts, rawRef)) error {
	for len(paths) > 0 {
		n := min(len(paths), rowsPerInsert)
		args := make([]any, n)
		for i, p := range paths[:n] {
			args[i] = p
		}
		query := `SELECT file, kind, by, target, symbol FROM idx_refs WHERE file IN (?` + strings.Repeat(", ?", n-1) + `) ORDER BY ` + pathOrder
		if err := scanRowsArgs(ctx, q, query, args, refRow(files, fn)); err != nil {
			return err
		}
		paths = paths[n:]
	}
	return nil
}
