package graph_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/store"
)

// benchRepo is a real repository of several thousand files to sync, e.g. a
// clone of github.com/outline/outline (never committed). The benchmarks
// that need it skip when it is absent.
func benchRepo(b *testing.B) string {
	root := os.Getenv("MCPC_GRAPH_BENCH_REPO")
	if root == "" {
		root = "/tmp/outline"
	}
	if _, err := os.Stat(root); err != nil {
		b.Skipf("no repository at %s (set MCPC_GRAPH_BENCH_REPO): skipped", root)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		b.Fatal(err)
	}
	return abs
}

// BenchmarkSyncCold syncs an indexed repository into an empty embedded
// graph: build every fact, hash, write in one transaction.
func BenchmarkSyncCold(b *testing.B) {
	root := benchRepo(b)
	f := newFixture(b, root)
	var sum *graph.SyncSummary
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		b.StopTimer()
		g := graph.OpenEmbedded(f.st.DB())
		if _, err := f.st.DB().Exec(`DROP TABLE IF EXISTS gr_nodes; DROP TABLE IF EXISTS gr_edges; DROP TABLE IF EXISTS gr_sources`); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		var err error
		if sum, err = graph.Sync(context.Background(), g, f.ix, graph.Options{}, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(f.ix.Files())), "files")
	b.ReportMetric(float64(sum.Nodes), "nodes")
	b.ReportMetric(float64(sum.Edges), "edges")
}

// BenchmarkSyncOneChange is `mcpc graph sync` after one file changed: the
// index refresh and the graph sync of what changed.
func BenchmarkSyncOneChange(b *testing.B) {
	root := benchRepo(b)
	f := newFixture(b, root)
	f.sync(b, false)
	file := filepath.Join(root, "mcpc-bench-changed.ts")
	b.Cleanup(func() { os.Remove(file) })
	i := 0
	var refresh, sync, syncCPU time.Duration
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		i++
		if err := os.WriteFile(file, fmt.Appendf(nil, "export const benchValue%d = %d;\n", i, i), 0o644); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		if _, err := f.ix.Refresh(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		f.ix.AllSymbols() // the index rebuilds its derived view here
		t1, c1 := time.Now(), cpuTime()
		sum, err := f.b.Sync(context.Background(), f.g, f.ix, false)
		refresh += t1.Sub(t0)
		sync += time.Since(t1)
		syncCPU += cpuTime() - c1
		if err != nil {
			b.Fatal(err)
		}
		if sum.Changed > 3 {
			b.Fatalf("one file changed %d groups", sum.Changed)
		}
	}
	b.ReportMetric(float64(refresh.Milliseconds())/float64(i), "refresh-ms/op")
	b.ReportMetric(float64(sync.Milliseconds())/float64(i), "graphsync-ms/op")
	b.ReportMetric(float64(syncCPU.Milliseconds())/float64(i), "graphsync-cpu-ms/op")
}

// BenchmarkInventory lists every custom element usage of the repository.
func BenchmarkInventory(b *testing.B) {
	root := benchRepo(b)
	f := newFixture(b, root)
	f.sync(b, false)
	n := 0
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		inv, err := graph.Inventory(context.Background(), f.g, "")
		if err != nil {
			b.Fatal(err)
		}
		n = 0
		for _, e := range inv {
			n += e.Count
		}
	}
	b.ReportMetric(float64(n), "usages")
}

// BenchmarkChains walks both proof chains on the testdata workspace.
func BenchmarkChains(b *testing.B) {
	f := newFixture(b, copyWorkspace(b))
	f.sync(b, false)
	cb := &graph.ChainBuilder{Store: f.g, Root: f.root}
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		cs, err := cb.Build(context.Background(), graph.ChainRequest{AgGrid: true, Federation: true})
		if err != nil || len(cs) != 4 {
			b.Fatalf("%d chains, %v", len(cs), err)
		}
	}
}

// BenchmarkBuild gathers and hashes every fact of an indexed repository:
// the part of every sync that does not depend on how much changed.
func BenchmarkBuild(b *testing.B) {
	root := benchRepo(b)
	f := newFixture(b, root)
	f.ix.AllSymbols()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if _, err := graph.Build(f.ix, nil, graph.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the CPU time per iteration since start (setup between
// StopTimer and StartTimer included, which the cold benchmark keeps small).
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkChainsRepo walks both chain kinds over a real repository's
// graph: every route is scanned for a lazy import of a remote and every
// <ag-grid-angular> usage followed, whether or not any chain completes.
func BenchmarkChainsRepo(b *testing.B) {
	root := benchRepo(b)
	f := newFixture(b, root)
	f.sync(b, false)
	cb := &graph.ChainBuilder{Store: f.g, Root: f.root}
	routes, _ := f.g.Nodes(context.Background(), graph.LabelSymbol, graph.SymbolKey("route", "/"), 0)
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if _, err := cb.Build(context.Background(), graph.ChainRequest{AgGrid: true, Federation: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(routes)), "routes")
}

// BenchmarkSyncColdWriterWait is a cold sync while a turn-like writer keeps
// asking the runtime database for its write lock: the longest wait of that
// writer (max-wait-ms) is how long a cold sync can stall a turn. One
// transaction holds the lock for the whole write; the batched sync
// (DefaultBatchRows) lets the writer in between batches.
func BenchmarkSyncColdWriterWait(b *testing.B) {
	root := benchRepo(b)
	for _, bc := range []struct {
		name string
		rows int
	}{{"one-transaction", 1 << 30}, {"batched", graph.DefaultBatchRows}} {
		b.Run(bc.name, func(b *testing.B) {
			f := newFixture(b, root)
			var worst time.Duration
			for b.Loop() {
				b.StopTimer()
				if _, err := f.st.DB().Exec(`DROP TABLE IF EXISTS gr_nodes; DROP TABLE IF EXISTS gr_edges; DROP TABLE IF EXISTS gr_sources`); err != nil {
					b.Fatal(err)
				}
				g := graph.OpenEmbedded(f.st.DB())
				stop, done := make(chan struct{}), make(chan time.Duration)
				go func() {
					var max time.Duration
					for {
						select {
						case <-stop:
							done <- max
							return
						default:
						}
						t0 := time.Now()
						if err := f.st.Update(context.Background(), func(*store.Tx) error { return nil }); err != nil {
							b.Error(err)
						}
						max = maxDuration(max, time.Since(t0))
						time.Sleep(time.Millisecond)
					}
				}()
				b.StartTimer()
				_, err := graph.NewBuilder(graph.Options{BatchRows: bc.rows}).Sync(context.Background(), g, f.ix, false)
				b.StopTimer()
				close(stop)
				worst = maxDuration(worst, <-done)
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(worst.Microseconds())/1000, "max-wait-ms")
		})
	}
}

func maxDuration(a, b time.Duration) time.Duration {
	if a > b {
		return a
	}
	return b
}
