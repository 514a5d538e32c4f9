package retrieval

import (
	"runtime"
	"testing"

	"github.com/mcpc/mcpc/internal/indexer"
)

// BenchmarkDeriveLarge is the part of a new process's first ranking that
// later rankings reuse: the derived tables (derive: path and symbol
// terms) and the graph lane's adjacency, over the index of the tree named
// by MCPC_BENCH_TREE (indexed beforehand; use a copy, the open may write).
// The view is built once before the timer, and the heap is collected
// before each iteration, so its garbage is not billed to the tables.
func BenchmarkDeriveLarge(b *testing.B) {
	root, db := openBenchTree(b)
	ix, err := indexer.Open(db, indexer.Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	ix.Corpus()
	b.ReportAllocs()
	var spent int64
	for b.Loop() {
		b.StopTimer()
		cacheMu.Lock()
		cache = nil
		cacheMu.Unlock()
		runtime.GC()
		cpu0 := cpuTime()
		b.StartTimer()
		derive(ix).adjacency(ix)
		spent += int64(cpuTime() - cpu0)
	}
	b.ReportMetric(float64(spent)/1e6/float64(b.N), "cpu-ms/op")
}
