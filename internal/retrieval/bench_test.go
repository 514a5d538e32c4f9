package retrieval

import "testing"

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
