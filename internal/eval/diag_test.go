package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/retrieval"
)

// TestDiagnoseSet ranks each row of a set the way initialize_work does
// (retrieval.Rank with the side lanes, the default 40 files and 2 MiB) and
// prints where each gold file ranks, deep in the ranking too, with the top
// of the ranking and its lanes for the rows that missed; then the set's
// recall and the BM25 reference. Each row's parent is kept in its own tree
// and index under MCPC_DIAG_CACHE, so a second run only ranks: a ranking
// change is measured on the same trees in a minute, and the figures do not
// depend on the machine's load (initialize_work's in-turn deadlines cut
// packs short on a loaded machine). MCPC_DIAG_ROWS=3,15 prints those rows
// in full. MCPC_DIAG_ROBUST=1 also ranks each row with the agent's lexemes
// derived two ways (LexemesFromIdentifiers, LexemesFromWords) and reports
// the mean overlap of their first 20 files, as `eval retrieval
// --robustness` does. A tuning aid: CI sets none of the variables and
// skips it.
func TestDiagnoseSet(t *testing.T) {
	set, repo, cache := os.Getenv("MCPC_DIAG_SET"), os.Getenv("MCPC_DIAG_REPO"), os.Getenv("MCPC_DIAG_CACHE")
	if set == "" || repo == "" || cache == "" {
		t.Skip("MCPC_DIAG_SET, MCPC_DIAG_REPO, MCPC_DIAG_CACHE not set")
	}
	rows, err := ReadSet(set)
	if err != nil {
		t.Fatal(err)
	}
	show := strings.Split(os.Getenv("MCPC_DIAG_ROWS"), ",")
	var results []RowResult
	bm := NewBM25()
	robust := os.Getenv("MCPC_DIAG_ROBUST") != ""
	for i, row := range rows {
		res, detail, err := diagnoseRow(context.Background(), cache, repo, i+1, row, bm, robust)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Gold) == 0 {
			continue
		}
		results = append(results, res)
		if res.Recall20 < 1 || slices.Contains(show, strconv.Itoa(i+1)) {
			fmt.Printf("\n=== [%d] %s  r@10=%.2f r@20=%.2f pack=%d\n%s", i+1, row.Prompt, res.Recall10, res.Recall20, res.PackSize, detail)
		}
	}
	s := summariseRows(results)
	over := ""
	if s.LexemeOverlap != nil {
		over = fmt.Sprintf(" overlap@20=%.3f", *s.LexemeOverlap)
	}
	fmt.Printf("\nSUMMARY %s rows=%d r@5=%.3f r@10=%.3f r@20=%.3f all=%.3f bm25@10=%.3f bm25@20=%.3f pack=%.1f%s\n",
		filepath.Base(set), s.Scored, s.Recall5, s.Recall10, s.Recall20, s.RecallAll, s.BM25Recall10, s.BM25Recall20, s.MeanPackSize, over)
}

// diagnoseRow scores one row and describes its ranking: a ROW line (printed
// for every row, so two runs can be diffed) and the detail of a miss.
func diagnoseRow(ctx context.Context, cache, repo string, n int, row Row, bm *BM25, robust bool) (RowResult, string, error) {
	res := RowResult{Commit: row.Commit, Prompt: row.Prompt, Gold: row.ChangedFiles}
	tree := filepath.Join(cache, "ws", row.Parent)
	materialised, err := MaterialiseTree(ctx, repo, row.Parent, tree)
	if err != nil {
		return res, "", err
	}
	if err := os.MkdirAll(filepath.Join(cache, "db"), 0o755); err != nil {
		return res, "", err
	}
	db, ix, err := openWorkspaceIndex(filepath.Join(cache, "db"), tree)
	if db != nil {
		defer db.Close()
	}
	if err != nil {
		return res, "", err
	}
	if _, err := ix.Refresh(ctx, nil); err != nil {
		return res, "", err
	}
	// The history the workspace had at the parent: the mirror's log from it.
	history, err := retrieval.ReadHistory(ctx, "", repo, row.Parent, retrieval.HistoryNeeded(row.Prompt))
	if err != nil {
		return res, "", err
	}
	boost := retrieval.SideLanes(ix, retrieval.SideInputs{Prompt: row.Prompt, History: history})
	ranked := retrieval.Rank(ix, retrieval.Query{Prompt: row.Prompt, Limit: retrieval.DefaultLimit, Boost: boost, History: history})
	var pack []string
	for _, r := range ranked {
		pack = append(pack, r.File)
	}
	score(&res, pack)
	overText := ""
	if robust {
		// The pack an agent gets with its lexemes derived two natural ways.
		withLexemes := func(lexemes []string) []string {
			b := retrieval.SideLanes(ix, retrieval.SideInputs{Prompt: row.Prompt, Lexemes: lexemes, History: history})
			var files []string
			for _, r := range retrieval.Rank(ix, retrieval.Query{Prompt: row.Prompt, Lexemes: lexemes, Limit: retrieval.DefaultLimit, Boost: b, History: history}) {
				files = append(files, r.File)
			}
			return files
		}
		o := overlap(withLexemes(LexemesFromIdentifiers(row.Prompt)), withLexemes(LexemesFromWords(row.Prompt)), 20)
		res.Overlap = &o
		overText = fmt.Sprintf(" overlap=%.2f", o)
	}
	var ref RowResult
	ref.Gold = res.Gold
	bmRanked := bm.Rank(tree, materialised, row.Prompt, 200)
	score(&ref, bmRanked[:min(20, len(bmRanked))])
	res.BM25Recall5, res.BM25Recall10, res.BM25Recall20 = ref.Recall5, ref.Recall10, ref.Recall20

	// Where each gold file ranks in the pack, and with no budget at all.
	deep := map[string]int{}
	deepRanked := retrieval.Rank(ix, retrieval.Query{Prompt: row.Prompt, Limit: 2000, MaxBytes: 1 << 40, Boost: boost, History: history})
	for j, r := range deepRanked {
		deep[r.File] = j + 1
	}
	dumpDeep(n, row, pack, deepRanked, ix)
	var at, bmAt []string
	var b strings.Builder
	for _, g := range res.Gold {
		k := slices.Index(pack, g) + 1
		at = append(at, strconv.Itoa(k))
		bk := slices.Index(bmRanked, g) + 1
		bmAt = append(bmAt, strconv.Itoa(bk))
		fmt.Fprintf(&b, "  gold %3d (deep %d, bm25 %d) %s\n", k, deep[g], bk, g)
	}
	for j, r := range ranked[:min(diagTop(), len(ranked))] {
		fmt.Fprintf(&b, "   %2d %.3f %v %s\n", j+1, r.Score, r.Lanes, r.File)
	}
	if len(res.Gold) > 0 {
		fmt.Printf("ROW %2d r5=%.2f r10=%.2f r20=%.2f all=%.2f at=%s bm25=%s%s\n", n, res.Recall5, res.Recall10, res.Recall20, res.RecallAll, strings.Join(at, ","), strings.Join(bmAt, ","), overText)
	}
	return res, b.String(), nil
}

// diagTop is how many of a missed row's pack files the diagnosis prints:
// MCPC_DIAG_TOP, 14 unless set (40 shows the whole pack, to see what a
// gold file below the 20th place is behind).
func diagTop() int {
	if n, err := strconv.Atoi(os.Getenv("MCPC_DIAG_TOP")); err == nil && n > 0 {
		return n
	}
	return 14
}

// dumpDeep appends the row's deep ranking (its first 150 files, with
// scores and lanes) as a JSON line to MCPC_DIAG_DUMP when set: offline
// analysis of where gold files sit and what ranks above them.
func dumpDeep(n int, row Row, pack []string, deep []retrieval.Ranked, ix interface{ Edges() []indexer.Edge }) {
	out := os.Getenv("MCPC_DIAG_DUMP")
	if out == "" {
		return
	}
	f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	deep = deep[:min(150, len(deep))]
	at := map[string]int{}
	for i, r := range deep {
		at[r.File] = i
	}
	var edges [][2]int
	for _, e := range ix.Edges() {
		i, ok1 := at[e.From]
		j, ok2 := at[e.To]
		if ok1 && ok2 && i != j {
			edges = append(edges, [2]int{i, j})
		}
	}
	nbrs := map[int][][2]string{}
	for _, e := range ix.Edges() {
		for k := 0; k < min(3, len(deep)); k++ {
			if e.From == deep[k].File {
				nbrs[k] = append(nbrs[k], [2]string{"imports", e.To})
			}
			if e.To == deep[k].File {
				nbrs[k] = append(nbrs[k], [2]string{"importedBy", e.From})
			}
		}
	}
	rec := map[string]any{"nbrs": nbrs, "row": n, "prompt": row.Prompt, "gold": row.ChangedFiles, "pack": pack, "deep": deep, "edges": edges}
	data, _ := json.Marshal(rec)
	f.Write(append(data, '\n'))
}
