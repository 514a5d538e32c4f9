package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

// TestMemoFileSparesANewProcess: a Builder that keeps its memo in a file
// leaves the next process's Builder (a new Builder on the same file) to
// build only the file that changed; a damaged memo file is reported and
// not used; either way the stored graph is the one a fresh build makes.
func TestMemoFileSparesANewProcess(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, copyWorkspace(t))
	memo := filepath.Join(t.TempDir(), "graph-memo")
	opts := graph.Options{MemoFile: memo}
	const service = "src/app/orders/orders.service.ts"
	// A contract file's props are not in the index: its group is built
	// at every sync, memo or not (src/design-system/components.d.ts).
	const contracts = 1
	edit := func(t *testing.T, extra string) {
		t.Helper()
		p := filepath.Join(f.root, filepath.FromSlash(service))
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, append(src, extra...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := f.ix.Refresh(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	sync := func(t *testing.T, b *graph.Builder) *graph.SyncSummary {
		t.Helper()
		sum, err := b.Sync(ctx, f.g, f.ix, false)
		if err != nil {
			t.Fatal(err)
		}
		b.Wait() // the memo is written in the background
		want, err := graph.Build(f.ix, nil, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		stored, err := f.g.Hashes(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for src, g := range want.Groups {
			if stored[src] != g.Hash {
				t.Errorf("group %s: stored %s, a fresh build %s", src, stored[src], g.Hash)
			}
		}
		return sum
	}

	firstSum := sync(t, graph.NewBuilder(opts))
	all := firstSum.Built
	if all < 10 || firstSum.MemoError != "" {
		t.Fatalf("the first sync built %d groups (%s): the workspace is not what the test needs", all, firstSum.MemoError)
	}

	t.Run("a new process after one edit", func(t *testing.T) {
		edit(t, "export class OrdersArchive { list() { return []; } }\n")
		if got := sync(t, graph.NewBuilder(opts)).Built; got != 1+contracts {
			t.Errorf("built %d groups, want %d (the edited file's and the contract files')", got, 1+contracts)
		}
	})
	t.Run("without a memo file", func(t *testing.T) {
		edit(t, "export const ARCHIVE_LIMIT = 10;\n")
		if got := sync(t, graph.NewBuilder(graph.Options{})).Built; got != all {
			t.Errorf("built %d groups, want all %d", got, all)
		}
	})
	t.Run("a damaged memo file", func(t *testing.T) {
		data, err := os.ReadFile(memo)
		if err != nil {
			t.Fatal(err)
		}
		data[len(data)/2] ^= 0xff
		if err := os.WriteFile(memo, data, 0o600); err != nil {
			t.Fatal(err)
		}
		edit(t, "export const ARCHIVE_PAGE = 5;\n")
		sum := sync(t, graph.NewBuilder(opts))
		if sum.Built != all {
			t.Errorf("built %d groups, want all %d", sum.Built, all)
		}
		if sum.MemoError == "" {
			t.Error("a damaged memo file was not reported")
		}
		// The sync wrote a good memo again.
		edit(t, "export const ARCHIVE_SORT = 'date';\n")
		if got := sync(t, graph.NewBuilder(opts)).Built; got != 1+contracts {
			t.Errorf("after the memo was written again, built %d groups, want %d", got, 1+contracts)
		}
	})
}
