package indexer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkRefreshCold indexes the test workspace from an empty database.
func BenchmarkRefreshCold(b *testing.B) {
	root := copyWorkspace(b)
	for b.Loop() {
		b.StopTimer()
		ix, err := Open(openDB(b, b.TempDir()), Options{Root: root})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := ix.Refresh(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefreshOneChange re-indexes after one file changed, including
// rebuilding the derived lookups a following Rank needs.
func BenchmarkRefreshOneChange(b *testing.B) {
	root := copyWorkspace(b)
	ix, _ := indexWorkspace(b, root)
	i := 0
	for b.Loop() {
		i++
		writeFile(b, root, "server/api/format.js", fmt.Appendf(nil, "export function formatTotal%d(amount) { return amount; }\n", i))
		sum, err := ix.Refresh(context.Background(), nil)
		if err != nil || sum.Reparsed != 1 {
			b.Fatalf("reparsed %d, err %v", sum.Reparsed, err)
		}
		ix.Corpus()
	}
}

// BenchmarkRefreshOneChangeLarge re-indexes a real tree named by
// MCPC_BENCH_TREE (e.g. a 5,000-file application, never committed) after
// one file changed. The tree is indexed cold once before the timer starts;
// one of its files is rewritten on each iteration and restored at the end.
func BenchmarkRefreshOneChangeLarge(b *testing.B) {
	root, file := os.Getenv("MCPC_BENCH_TREE"), os.Getenv("MCPC_BENCH_FILE")
	if root == "" || file == "" {
		b.Skip("MCPC_BENCH_TREE and MCPC_BENCH_FILE (a file under it) not set")
	}
	orig, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.WriteFile(filepath.Join(root, file), orig, 0o644) })
	// A serving process's index: it watches the tree (Options.Watch).
	ix, err := Open(openDB(b, b.TempDir()), Options{Root: root, Watch: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	sum, err := ix.Refresh(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(sum.Files), "files")
	ix.Corpus()
	// A long-lived serve process has walked the tree before; its
	// directories were not just created (see racyWindow).
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		b.Fatal(err)
	}
	i := 0
	derived := ix.derivedViews
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		i++
		writeFile(b, root, file, append(append([]byte{}, orig...), fmt.Appendf(nil, "\n// edit %d\n", i)...))
		sum, err := ix.Refresh(context.Background(), nil)
		if err != nil || sum.Reparsed != 1 {
			b.Fatalf("reparsed %d, err %v", sum.Reparsed, err)
		}
		ix.Corpus()
	}
	b.ReportMetric(float64(ix.derivedViews-derived)/float64(i), "derived/op")
}

// reportCPU reports the process CPU time per iteration since start: on a
// shared machine wall time mostly measures the neighbours.
func reportCPU(b *testing.B, start time.Duration) {
	if b.N > 0 {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRefreshColdLarge indexes the real tree named by MCPC_BENCH_TREE
// from an empty database, derived lookups included: `mcpc index` on a
// fresh workspace.
func BenchmarkRefreshColdLarge(b *testing.B) {
	root := os.Getenv("MCPC_BENCH_TREE")
	if root == "" {
		b.Skip("MCPC_BENCH_TREE not set")
	}
	var sum Summary
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		b.StopTimer()
		ix, err := Open(openDB(b, b.TempDir()), Options{Root: root})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if sum, err = ix.Refresh(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sum.Files), "files")
}

// BenchmarkRefreshAddRemoveLarge re-indexes MCPC_BENCH_TREE after a file
// was added beside MCPC_BENCH_FILE, or removed again (alternately): the
// file set changes, so documents are renumbered and imports that may reach
// the file are resolved again.
func BenchmarkRefreshAddRemoveLarge(b *testing.B) {
	root, file := os.Getenv("MCPC_BENCH_TREE"), os.Getenv("MCPC_BENCH_FILE")
	if root == "" || file == "" {
		b.Skip("MCPC_BENCH_TREE and MCPC_BENCH_FILE (a file under it) not set")
	}
	added := filepath.Join(root, filepath.Dir(file), "mcpc-bench-added.ts")
	b.Cleanup(func() { os.Remove(added) })
	ix, err := Open(openDB(b, b.TempDir()), Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	for range 2 {
		if _, err := ix.Refresh(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
	i := 0
	derived := ix.derivedViews
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		i++
		if i%2 == 1 {
			err = os.WriteFile(added, fmt.Appendf(nil, "export class BenchAdded%d {}\n", i), 0o644)
		} else {
			err = os.Remove(added)
		}
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Refresh(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
		ix.Corpus()
	}
	b.ReportMetric(float64(ix.derivedViews-derived)/float64(i), "derived/op")
}
