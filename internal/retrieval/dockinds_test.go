package retrieval

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDocKindsMatchPerFileAnswers: the per-corpus table answers what
// isTestFile, isStylesheet and prior answer for each file, is kept when only contents
// changed, and is worked out again when a file was added.
func TestDocKindsMatchPerFileAnswers(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/app/orders/orders.service.ts":      "export class OrdersService {}\n",
		"src/app/orders/orders.service.spec.ts": "describe('OrdersService', () => {});\n",
		"db/migrations/0001_orders.py":          "def up(): pass\n",
		"docs/orders.md":                        "# Orders\n",
		"src/app/orders/orders.component.scss":  ".orders { display: flex; }\n",
		"e2e/orders.cy.ts":                      "it('orders', () => {});\n",
	})
	check := func() *docKinds {
		t.Helper()
		d := derive(ix)
		k := d.kinds()
		for i, f := range d.corpus.Files {
			if k.test[i] != isTestFile(f) {
				t.Errorf("%s: test %v, want %v", f, k.test[i], isTestFile(f))
			}
			if k.stylesheet[i] != isStylesheet(f) {
				t.Errorf("%s: stylesheet %v, want %v", f, k.stylesheet[i], isStylesheet(f))
			}
			for _, m := range []bool{false, true} {
				if got, want := k.priorOf(int32(i), m), prior(f, d.corpus.Langs[i], m); got != want {
					t.Errorf("%s (migrations %v): prior %v, want %v", f, m, got, want)
				}
			}
		}
		return k
	}
	first := check()
	write := func(rel, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(ix.Root(), filepath.FromSlash(rel)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Refresh(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	write("src/app/orders/orders.service.ts", "export class OrdersService { total = 0; }\n")
	if check() != first {
		t.Error("a content-only change worked the table out again")
	}
	write("src/app/orders/orders_test.go", "package orders\n")
	if k := check(); k == first || len(k.test) != 7 {
		t.Errorf("after a file was added: the same table %v, %d files", k == first, len(k.test))
	}
}

// TestGraphLaneMatchesMapWalk: the dense walk gives exactly the scores of
// the walk over maps it replaced, on the test workspace's graph from
// every single seed and from every other file at once.
func TestGraphLaneMatchesMapWalk(t *testing.T) {
	ix := testIndex(t)
	d := derive(ix)
	adj := d.adjacency(ix)
	reference := func(seeds []docScore) map[int32]float64 {
		restart := map[int32]float64{}
		var sum float64
		for _, s := range seeds {
			sum += s.total
		}
		for _, s := range seeds {
			restart[s.doc] = s.total / sum
		}
		rank := maps.Clone(restart)
		for range 6 {
			next := map[int32]float64{}
			for k, v := range restart {
				next[k] = 0.5 * v
			}
			for _, doc := range slices.Sorted(maps.Keys(rank)) {
				if out := adj[doc]; len(out) > 0 {
					for _, to := range out {
						next[to] += 0.5 * rank[doc] / float64(len(out))
					}
				}
			}
			rank = next
		}
		for _, s := range seeds {
			delete(rank, s.doc)
		}
		return rank
	}
	var all []docScore
	for doc := range adj {
		seeds := []docScore{{doc: int32(doc), total: 1}}
		if doc%2 == 0 {
			all = append(all, docScore{doc: int32(doc), total: float64(doc%3 + 1)})
		}
		if got, want := d.graph(ix, seeds), reference(seeds); !maps.Equal(got, want) {
			t.Fatalf("seed %s: %v, want %v", d.corpus.Files[doc], got, want)
		}
	}
	if got, want := d.graph(ix, all), reference(all); len(want) == 0 || !maps.Equal(got, want) {
		t.Errorf("every other file a seed: %v, want %v", got, want)
	}
}
