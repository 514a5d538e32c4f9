package eval

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/retrieval"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// RankInit returns an InitFunc that stands in for initialize_work in
// measurements: it keeps one index database per workspace under dbDir
// (outside the workspace, so it survives re-materialisation and refreshes
// incrementally), refreshes it and ranks with retrieval.Rank. The returned
// function closes the databases.
func RankInit(dbDir string, limit int) (InitFunc, func() error, error) {
	if err := os.MkdirAll(dbDir, 0o755); err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	indexes := map[string]*indexer.Index{}
	var dbs []*sql.DB
	init := func(ctx context.Context, workspace, prompt string, lexemes []string) ([]string, error) {
		mu.Lock()
		defer mu.Unlock()
		ix := indexes[workspace]
		if ix == nil {
			db, opened, err := openWorkspaceIndex(dbDir, workspace)
			if db != nil {
				dbs = append(dbs, db)
			}
			if err != nil {
				return nil, err
			}
			ix = opened
			indexes[workspace] = ix
		}
		if _, err := ix.Refresh(ctx, nil); err != nil {
			return nil, err
		}
		var files []string
		// The side lanes too (files the prompt names, custom tags), as
		// initialize_work ranks.
		history, _ := retrieval.HistoryFrom(ctx)
		boost := retrieval.SideLanes(ix, retrieval.SideInputs{Prompt: prompt, Lexemes: lexemes, History: history})
		for _, r := range retrieval.Rank(ix, retrieval.Query{Prompt: prompt, Lexemes: lexemes, Limit: limit, Boost: boost, History: history}) {
			files = append(files, r.File)
		}
		return files, nil
	}
	closeAll := func() error {
		mu.Lock()
		defer mu.Unlock()
		var first error
		for _, db := range dbs {
			if err := db.Close(); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	return init, closeAll, nil
}

// openWorkspaceIndex opens the index of workspace kept under dbDir, in a
// database named by the workspace's absolute path. The database is
// returned for the caller to close, also when opening the index failed.
func openWorkspaceIndex(dbDir, workspace string) (*sql.DB, *indexer.Index, error) {
	abs, err := filepath.Abs(workspace)
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256([]byte(abs))
	db, err := OpenDB(filepath.Join(dbDir, hex.EncodeToString(sum[:8])+".db"))
	if err != nil {
		return nil, nil, err
	}
	ix, err := indexer.Open(db, indexer.Options{Root: abs})
	return db, ix, err
}

// OpenDB opens a SQLite database the way mcpc's store does: WAL, a busy
// timeout, normal synchronous mode.
func OpenDB(path string) (*sql.DB, error) {
	dsn := fmt.Sprintf("file:%s?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)", path)
	return sql.Open("sqlite", dsn)
}
