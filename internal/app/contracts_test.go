package app

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mcpc/mcpc/internal/controller"
	"github.com/mcpc/mcpc/internal/graph"
	"github.com/mcpc/mcpc/internal/patch"
)

// syncedContracts is graphContracts on the embedded graph synced from
// internal/graph's testdata workspace (its components.d.ts and seeds).
func syncedContracts(tb testing.TB) graphContracts {
	tb.Helper()
	ctx := context.Background()
	ws := tb.TempDir()
	if err := os.CopyFS(ws, os.DirFS(filepath.Join("..", "graph", "testdata", "workspace"))); err != nil {
		tb.Fatal(err)
	}
	g, err := OpenGraph(ctx, ws)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { g.Close() })
	if _, err := g.Index.Refresh(ctx, nil); err != nil {
		tb.Fatal(err)
	}
	if _, err := graph.NewBuilder(g.Options).Sync(ctx, g.Store, g.Index, true); err != nil {
		tb.Fatal(err)
	}
	return graphContracts{store: g.Store}
}

// TestGraphContracts: contracts come only for declared components, with
// their props; a migration rule supplies mappings only when approved.
func TestGraphContracts(t *testing.T) {
	ctx := context.Background()
	gc := syncedContracts(t)
	got, err := gc.Contracts(ctx, []string{"adp-alert", "sdf-button", "app-unknown"})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range got["sdf-button"].Props {
		names[p.Name] = true
	}
	if len(got) != 1 || !reflect.DeepEqual(names, map[string]bool{"variant": true, "disabled": true, "label": true}) {
		t.Fatalf("contracts: %+v", got)
	}
	for _, tc := range []struct {
		note, tag string
		want      patch.MigrationRule
		ok        bool
	}{
		{note: "approved", tag: "adp-alert", ok: true,
			want: patch.MigrationRule{FromTag: "adp-alert", ToTag: "sdf-alert", PropMappings: map[string]string{"type": "severity", "message": "heading"}}},
		{note: "candidate", tag: "adp-button"},
		{note: "none", tag: "adp-nothing"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			rule, ok, err := gc.MigrationRule(ctx, tc.tag)
			if err != nil || ok != tc.ok || (ok && !reflect.DeepEqual(rule, tc.want)) {
				t.Fatalf("got %+v %v %v", rule, ok, err)
			}
		})
	}
	var _ controller.ComponentContracts = gc
}

// BenchmarkGraphContracts is the graph read a contracted patch adds: one
// tag's contract with its props.
func BenchmarkGraphContracts(b *testing.B) {
	gc := syncedContracts(b)
	ctx := context.Background()
	for b.Loop() {
		if c, err := gc.Contracts(ctx, []string{"sdf-alert"}); err != nil || len(c) != 1 {
			b.Fatal(c, err)
		}
	}
}
