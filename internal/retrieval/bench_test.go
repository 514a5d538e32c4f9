package retrieval

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/indexer"
)

// BenchmarkRank measures a warm Rank over the test workspace.
func BenchmarkRank(b *testing.B) {
	ix := testIndex(b)
	q := Query{Prompt: "Migrate the dashboard grid from adp-data-table to sdf-table", Lexemes: []string{"dashboard"}}
	Rank(ix, q) // build the derived lookups once, as a warm server has
	b.ResetTimer()
	for b.Loop() {
		Rank(ix, q)
	}
}

// BenchmarkRankAfterOneChange is what a serve process does for a pack after
// a person saved one file: refresh the index, then rank. The tree is named
// by MCPC_BENCH_TREE (e.g. a 5,000-file application, never committed) and
// the file to rewrite on each iteration by MCPC_BENCH_FILE.
func BenchmarkRankAfterOneChange(b *testing.B) {
	root, file := os.Getenv("MCPC_BENCH_TREE"), os.Getenv("MCPC_BENCH_FILE")
	if root == "" || file == "" {
		b.Skip("MCPC_BENCH_TREE and MCPC_BENCH_FILE (a file under it) not set")
	}
	orig, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.WriteFile(filepath.Join(root, file), orig, 0o644) })
	db, err := sql.Open("sqlite", "file:"+filepath.Join(b.TempDir(), "index.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ix, err := indexer.Open(db, indexer.Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	for range 2 { // cold, then the walk a long-lived process has done
		if _, err := ix.Refresh(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
	q := Query{Prompt: "Show the item's access status badge on the search result", Lexemes: []string{"access status"}}
	Rank(ix, q)
	var refresh time.Duration
	i := 0
	cpu0 := cpuTime()
	for b.Loop() {
		i++
		if err := os.WriteFile(filepath.Join(root, file), append(append([]byte{}, orig...), fmt.Appendf(nil, "\n// edit %d\n", i)...), 0o644); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		if _, err := ix.Refresh(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		ix.Corpus()
		refresh += time.Since(t0)
		Rank(ix, q)
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(i), "cpu-ms/op")
	b.ReportMetric(float64(refresh.Microseconds())/1000/float64(i), "refresh-ms/op")
}

// cpuTime is the process's CPU time: on a shared machine wall time mostly
// measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFirstRankLarge is what a new serve process pays for its first
// ranking, the refresh walk aside: open the index of the tree named by
// MCPC_BENCH_TREE (indexed beforehand with `mcpc index`, so its store is
// .ai/tmp/mcpc.db; use a copy, the open may write), build its first view
// and the ranking's derived tables, and rank once.
func BenchmarkFirstRankLarge(b *testing.B) {
	root, db := openBenchTree(b)
	q := Query{Prompt: "Show the item's access status badge on the search result", Lexemes: []string{"access status"}}
	// MCPC_BENCH_HISTORY_GIT names a repository whose latest commits the
	// co-change lane reads (the tree's own, or a mirror of it), as
	// initialize_work hands them over.
	if gitDir := os.Getenv("MCPC_BENCH_HISTORY_GIT"); gitDir != "" {
		h, err := ReadHistory(context.Background(), "", gitDir, "", HistoryNeeded(q.Prompt))
		if err != nil {
			b.Fatal(err)
		}
		q.History = h
	}
	var view, rank time.Duration
	i := 0
	for b.Loop() {
		i++
		cacheMu.Lock()
		cache = nil
		cacheMu.Unlock()
		ix, err := indexer.Open(db, indexer.Options{Root: root})
		if err != nil {
			b.Fatal(err)
		}
		cpu0 := cpuTime()
		ix.Corpus()
		cpu1 := cpuTime()
		Rank(ix, q)
		view, rank = view+cpu1-cpu0, rank+cpuTime()-cpu1
	}
	b.ReportMetric(float64(view.Microseconds())/1000/float64(i), "view-cpu-ms/op")
	b.ReportMetric(float64(rank.Microseconds())/1000/float64(i), "rank-cpu-ms/op")
}

// BenchmarkRankLarge is a warm ranking, as every initialize_work of a
// serving process after its first pays: the view and ranking's tables
// built, the side lanes and the lanes run and fused for one prompt on the
// tree MCPC_BENCH_TREE names (MCPC_BENCH_HISTORY_GIT as above).
func BenchmarkRankLarge(b *testing.B) {
	root, db := openBenchTree(b)
	q := Query{Prompt: "Show the item's access status badge on the search result", Lexemes: []string{"access status"}}
	if gitDir := os.Getenv("MCPC_BENCH_HISTORY_GIT"); gitDir != "" {
		h, err := ReadHistory(context.Background(), "", gitDir, "", HistoryNeeded(q.Prompt))
		if err != nil {
			b.Fatal(err)
		}
		q.History = h
	}
	ix, err := indexer.Open(db, indexer.Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	Prepare(ix)
	Rank(ix, q)
	cpu0, n := cpuTime(), 0
	for b.Loop() {
		n++
		q.Boost = SideLanes(ix, SideInputs{Prompt: q.Prompt, Lexemes: q.Lexemes, History: q.History})
		Rank(ix, q)
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(n), "cpu-ms/op")
}

// openBenchTree opens the store of the tree MCPC_BENCH_TREE names (indexed
// beforehand with `mcpc index`, so at .ai/tmp/mcpc.db), skipping when it
// is unset; the store is closed when the benchmark ends.
func openBenchTree(b *testing.B) (string, *sql.DB) {
	b.Helper()
	root := os.Getenv("MCPC_BENCH_TREE")
	if root == "" {
		b.Skip("MCPC_BENCH_TREE not set")
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(root, ".ai", "tmp", "mcpc.db")+"?_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return root, db
}

// BenchmarkSimilarLane is the similar-subjects lane's cost per ranking on
// the latest commits of the repository MCPC_BENCH_HISTORY_GIT names (300,
// as initialize_work reads them): it tokenises every subject once.
func BenchmarkSimilarLane(b *testing.B) {
	gitDir := os.Getenv("MCPC_BENCH_HISTORY_GIT")
	if gitDir == "" {
		b.Skip("MCPC_BENCH_HISTORY_GIT not set")
	}
	prompt := "Move email onboarding views to hc.integrations"
	h, err := ReadHistory(context.Background(), "", gitDir, "", HistoryNeeded(prompt))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		similarLane(prompt, h, nil)
	}
}

// BenchmarkAnalogueLane is the analogue lane's cost per ranking beyond the
// similar lane's (whose similar commits it reads), on the history of
// MCPC_BENCH_HISTORY_GIT; the tree is the history's files.
func BenchmarkAnalogueLane(b *testing.B) {
	gitDir := os.Getenv("MCPC_BENCH_HISTORY_GIT")
	if gitDir == "" {
		b.Skip("MCPC_BENCH_HISTORY_GIT not set")
	}
	prompt := "Move apprise onboarding views to hc.integrations"
	h, err := ReadHistory(context.Background(), "", gitDir, "", HistoryNeeded(prompt))
	if err != nil {
		b.Fatal(err)
	}
	tree := map[string]bool{}
	for _, c := range h {
		for _, f := range c.Files {
			tree[f] = true
		}
	}
	sims, words := similarCommits(prompt, h, nil)
	b.ReportAllocs()
	for b.Loop() {
		analogueFiles(prompt, h, sims, words, func(f string) bool { return tree[f] }, nil)
	}
}

// BenchmarkDocKindsLarge is the per-corpus table of tests, stylesheets and
// priors (dockinds.go) worked out from scratch for the tree MCPC_BENCH_TREE
// names, as a new process's first ranking, or Prepare, does.
func BenchmarkDocKindsLarge(b *testing.B) {
	root, db := openBenchTree(b)
	ix, err := indexer.Open(db, indexer.Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	d := derive(ix)
	for b.Loop() {
		cacheMu.Lock()
		d.docKinds = nil
		cacheMu.Unlock()
		d.kinds()
	}
}
