package graph_test

import (
	"context"
	"slices"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

// hidingIndex is an index whose file list leaves one file out while its
// importers' edges still point at it: an end of their groups' edges
// disappears although nothing they are built from changed.
type hidingIndex struct {
	graph.CodeIndex
	hide string
}

func (h hidingIndex) Files() []string {
	return slices.DeleteFunc(slices.Clone(h.CodeIndex.Files()), func(f string) bool { return f == h.hide })
}

// TestMemoFollowsEnds: a Builder's sync reuses a file's group only while
// every end of its edges in other groups exists exactly when it did, so
// what it stores as ends disappear and come back is what a fresh build
// makes.
func TestMemoFollowsEnds(t *testing.T) {
	f := newFixture(t, copyWorkspace(t))
	if _, err := f.ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	const model = "src/app/orders/order.model.ts"
	ctx := context.Background()
	var importer string
	for _, tc := range []struct {
		note string
		ix   graph.CodeIndex
	}{
		{"everything", f.ix},
		{"the model hidden", hidingIndex{f.ix, model}},
		{"the model back", f.ix},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if _, err := f.b.Sync(ctx, f.g, tc.ix, false); err != nil {
				t.Fatal(err)
			}
			stored, err := f.g.Hashes(ctx)
			if err != nil {
				t.Fatal(err)
			}
			want, err := graph.Build(tc.ix, nil, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for src, g := range want.Groups {
				if stored[src] != g.Hash {
					t.Errorf("group %s: stored %s, a fresh build %s", src, stored[src], g.Hash)
				}
				for _, e := range g.Edges {
					if e.To == graph.FileID(model) && e.From != graph.FileID(model) {
						importer = e.From
					}
				}
			}
		})
	}
	if importer == "" {
		t.Fatal("no group imports the model: the case tests nothing")
	}
}
