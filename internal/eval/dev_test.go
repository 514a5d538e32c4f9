package eval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestDevelopmentSet runs the retrieval evaluation on a real repository when
// MCPC_EVAL_SET and MCPC_EVAL_REPO are set; CI has neither and skips it.
// MCPC_EVAL_OUT names a file for the JSON report.
func TestDevelopmentSet(t *testing.T) {
	set, repo := os.Getenv("MCPC_EVAL_SET"), os.Getenv("MCPC_EVAL_REPO")
	if set == "" || repo == "" {
		t.Skip("MCPC_EVAL_SET and MCPC_EVAL_REPO not set")
	}
	// MCPC_EVAL_CACHE keeps trees and indexes between runs (for tuning).
	dir, keep := os.Getenv("MCPC_EVAL_CACHE"), true
	if dir == "" {
		dir, keep = t.TempDir(), false
	}
	init, closeDB, err := RankInit(filepath.Join(dir, "db"), 40)
	if err != nil {
		t.Fatal(err)
	}
	defer closeDB()
	rows, _ := strconv.Atoi(os.Getenv("MCPC_EVAL_ROWS"))
	rep, err := Retrieval(context.Background(), Options{Set: set, Repo: repo, Init: init, Workspace: filepath.Join(dir, "ws"), KeepTrees: keep, Rows: rows, Log: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recall@5=%.3f @10=%.3f @20=%.3f all=%.3f pack=%.1f init=%.2fs",
		rep.Recall5, rep.Recall10, rep.Recall20, rep.RecallAll, rep.MeanPackSize, rep.MeanSeconds)
	if out := os.Getenv("MCPC_EVAL_OUT"); out != "" {
		data, _ := json.MarshalIndent(rep, "", "  ")
		os.WriteFile(out, data, 0o644)
	}
}
