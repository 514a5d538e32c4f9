// Package indexer owns mcpc's persistent code index: which files a workspace
// has, the symbol headers they define (classes, interfaces, types, enums,
// functions, methods, exported constants), the import/reference edges between
// them, Angular and ag-Grid and Module Federation facts, template
// custom-element usages, and the identifier-aware term statistics that the
// lexical retrieval lane ranks with.
//
// The index lives in tables prefixed idx_ inside the SQLite database mcpc
// keeps under .ai/tmp/. It is incremental: Refresh re-parses only files whose
// content hash changed and drops deleted ones, writing each file's facts in the
// same transaction as its file row so an interrupted run leaves a consistent
// index. Parsing uses tree-sitter with the official grammars; only stable
// headers are persisted, never whole syntax trees.
//
// An Index opens with its files' stamps only and reads their facts from the
// database when a view is first needed; a refresh without a view writes
// each batch and keeps only stamps, and `mcpc index` counts its summary
// from the database (lazy.go), so indexing holds no tree's facts in memory.
//
// A long-lived Index (a serve process refreshes before every pack) keeps its
// cost proportional to what changed: the walk reuses the listing of every
// directory whose modification time and .gitignore did not change and only
// stats its files, and the derived lookups (edges, symbol tables, BM25
// postings) are derived from the previous ones for the changed, added and
// removed files instead of rebuilt (see view.update).
package indexer
