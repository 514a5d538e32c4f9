package indexer

import (
	"context"
	"fmt"
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
