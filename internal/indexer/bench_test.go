package indexer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
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
	ix, err := Open(openDB(b, b.TempDir()), Options{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	sum, err := ix.Refresh(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(sum.Files), "files")
	i := 0
	for b.Loop() {
		i++
		writeFile(b, root, file, append(append([]byte{}, orig...), fmt.Appendf(nil, "\n// edit %d\n", i)...))
		sum, err := ix.Refresh(context.Background(), nil)
		if err != nil || sum.Reparsed != 1 {
			b.Fatalf("reparsed %d, err %v", sum.Reparsed, err)
		}
		ix.Corpus()
	}
}
