package graph_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/graph"
)

// graphDump is every stored row of the embedded graph, in a stable order
// (the generation column, a write's clock, left out, and the sync stamp,
// which stats the fixture's own copy of the files).
func graphDump(t *testing.T, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT id || '|' || label || '|' || key || '|' || source || '|' || props FROM gr_nodes ORDER BY id`,
		`SELECT src || '|' || type || '|' || dst || '|' || source || '|' || props FROM gr_edges ORDER BY src, type, dst`,
		`SELECT source || '|' || hash FROM gr_sources WHERE source <> '` + graph.SourceSyncStamp + `' ORDER BY source`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s + "\n")
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		b.WriteString("--\n")
	}
	return b.String()
}

// TestSyncBatched: a sync written in transactions of a few rows, or split
// (nodes written as built, edges in a second pass, because the change
// outgrew the rows a sync holds), stores exactly what one transaction
// stores, through a cold sync, a changed template and a removed file; and
// an invalid seed still fails the whole sync before its first transaction.
func TestSyncBatched(t *testing.T) {
	ctx := context.Background()
	one, batched, split := newFixture(t, copyWorkspace(t)), newFixture(t, copyWorkspace(t)), newFixture(t, copyWorkspace(t))
	batched.b = graph.NewBuilder(graph.Options{BatchRows: 60})
	one.b = graph.NewBuilder(graph.Options{BatchRows: 1 << 30})
	split.b = graph.NewBuilder(graph.Options{BatchRows: 60, HeldRows: 40})
	steps := []struct {
		note   string
		change func(root string)
	}{
		{"cold", func(string) {}},
		{"a template changed", func(root string) {
			tpl := filepath.Join(root, "src/app/orders/detail/order-detail.component.html")
			if err := os.WriteFile(tpl, []byte("<adp-badge tone=\"info\"></adp-badge>\n<sdf-button label=\"x\"></sdf-button>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"a file removed", func(root string) {
			if err := os.Remove(filepath.Join(root, "skills.md")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, step := range steps {
		for _, f := range []*fixture{one, batched, split} {
			step.change(f.root)
		}
		a := one.sync(t, false)
		for _, f := range []*fixture{batched, split} {
			if b := f.sync(t, false); a.Changed != b.Changed || a.Removed != b.Removed || a.Nodes != b.Nodes || a.Edges != b.Edges {
				t.Fatalf("%s: summaries differ: %+v, %+v", step.note, a, b)
			}
			if da, db := graphDump(t, one.st.DB()), graphDump(t, f.st.DB()); da != db {
				t.Fatalf("%s: the batched sync stored another graph\none transaction:\n%s\nbatched:\n%s", step.note, da, db)
			}
		}
	}
	if n, _, _ := batched.g.Counts(ctx); n[graph.LabelFile] == 0 {
		t.Fatal("nothing was synced")
	}

	before := graphDump(t, batched.st.DB())
	seed := filepath.Join(batched.root, ".ai/graph/seed/migrations/adp-to-sdf.jsonl")
	raw, _ := os.ReadFile(seed)
	if err := os.WriteFile(seed, []byte(strings.Replace(string(raw), `"status":"unknown"`, `"status":"later"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(batched.root, "src/app/orders/new.component.html"), []byte("<adp-badge></adp-badge>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := batched.ix.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := batched.b.Sync(ctx, batched.g, batched.ix, false); err == nil {
		t.Fatal("an invalid seed row must fail the sync")
	}
	if after := graphDump(t, batched.st.DB()); after != before {
		t.Fatal("a failed batched sync changed the graph")
	}
}

// TestSyncBatchedInterrupted: a batched sync that stops half way (here its
// context ends in a pause between two transactions) leaves the sources it
// did not finish without their hash, and the next sync completes the graph
// to exactly what one transaction stores.
func TestSyncBatchedInterrupted(t *testing.T) {
	for _, tc := range []struct {
		note string
		opts graph.Options
	}{
		{"batched", graph.Options{BatchRows: 60}},
		{"split", graph.Options{BatchRows: 60, HeldRows: 40}},
	} {
		t.Run(tc.note, func(t *testing.T) { testSyncInterrupted(t, tc.opts) })
	}
}

func testSyncInterrupted(t *testing.T, opts graph.Options) {
	one, batched := newFixture(t, copyWorkspace(t)), newFixture(t, copyWorkspace(t))
	one.b = graph.NewBuilder(graph.Options{BatchRows: 1 << 30})
	batched.b = graph.NewBuilder(opts)
	one.sync(t, false)

	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if _, err := batched.b.Sync(ctx, batched.g, batched.ix, false); err == nil {
		t.Fatal("a sync of many batches cannot finish in 150 ms of pauses")
	}
	stored, err := batched.g.Hashes(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := one.g.Hashes(context.Background())
	delete(want, graph.SourceSyncStamp) // stats the fixture's own copy
	complete := 0
	for src, h := range want {
		if stored[src] == h {
			complete++
		}
	}
	if complete == len(want) {
		t.Fatalf("the interrupted sync completed all %d sources", len(want))
	}
	batched.sync(t, false)
	if da, db := graphDump(t, one.st.DB()), graphDump(t, batched.st.DB()); da != db {
		t.Fatalf("the sync after an interrupted one stored another graph\none transaction:\n%s\nbatched:\n%s", da, db)
	}
}
