package graph_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

const goodRule = `{"id":"r1","type":"MigrationRule","version":1,"updated_at":"2026-11-01","updated_by":"a","fromTag":"adp-x","toTag":"sdf-x","status":"approved"}`

func TestSeedValidation(t *testing.T) {
	for _, tc := range []struct {
		note string
		rows string
		want []string // file:line: message fragments, in order
	}{
		{note: "missing invariants", rows: `{"id":"r1","type":"UIIntent","intent":"tabular_view"}`,
			want: []string{"bad.jsonl:1: version: missing property", "bad.jsonl:1: updated_at: missing property", "bad.jsonl:1: updated_by: missing property"}},
		{note: "status outside the enum", rows: strings.Replace(goodRule, `"approved"`, `"maybe"`, 1),
			want: []string{"bad.jsonl:1: status: value must be one of"}},
		{note: "approved rule without a target", rows: strings.Replace(goodRule, `"toTag":"sdf-x",`, "", 1),
			want: []string{"bad.jsonl:1: toTag: missing property"}},
		{note: "unknown rule needs no target", rows: strings.Replace(strings.Replace(goodRule, `"toTag":"sdf-x",`, "", 1), "approved", "unknown", 1)},
		{note: "field of no kind", rows: strings.Replace(goodRule, `"status"`, `"owner":"me","status"`, 1),
			want: []string{"bad.jsonl:1: ", "owner"}},
		{note: "tag that is no custom element", rows: strings.Replace(goodRule, `"adp-x"`, `"div"`, 1),
			want: []string{"bad.jsonl:1: fromTag: does not match pattern"}},
		{note: "not JSON, on the third line after a blank one", rows: goodRule + "\n\n{oops",
			want: []string{"bad.jsonl:3: not JSON"}},
		{note: "duplicate id", rows: goodRule + "\n" + goodRule, want: []string{`bad.jsonl:2: duplicate id "r1" (first at .ai/graph/seed/bad.jsonl:1)`}},
		{note: "unknown type", rows: strings.Replace(goodRule, "MigrationRule", "Recipe", 1), want: []string{"bad.jsonl:1: type: value must be one of"}},
		{note: "version not an integer", rows: strings.Replace(goodRule, `"version":1`, `"version":"1"`, 1), want: []string{"bad.jsonl:1: version: "}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, ".ai/graph/seed")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "bad.jsonl"), []byte(tc.rows+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rows, err := graph.LoadSeeds(root)
			if len(tc.want) == 0 {
				if err != nil || len(rows) != 1 {
					t.Fatalf("want one valid row: %v %v", rows, err)
				}
				return
			}
			var se *graph.SourceError
			if !errors.As(err, &se) {
				t.Fatalf("want a SourceError, got %v", err)
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not contain %q", msg, w)
				}
			}
		})
	}
}

// TestBadSeedKeepsGraph: one bad row fails the sync and the graph keeps
// what the last good sync wrote.
func TestBadSeedKeepsGraph(t *testing.T) {
	ctx := context.Background()
	root := copyWorkspace(t)
	f := newFixture(t, root)
	f.sync(t, false)
	before, _ := f.g.Hashes(ctx)
	seed := filepath.Join(root, ".ai/graph/seed/migrations/adp-to-sdf.jsonl")
	raw, _ := os.ReadFile(seed)
	bad := strings.Replace(string(raw), `"status":"unknown"`, `"status":"later"`, 1)
	if err := os.WriteFile(seed, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file change in the same sync must not be written either.
	if err := os.WriteFile(filepath.Join(root, "src/app/orders/new.component.html"), []byte("<adp-badge></adp-badge>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.ix.Refresh(ctx, nil); err != nil {
		t.Fatal(err)
	}
	_, err := graph.Sync(ctx, f.g, f.ix, graph.Options{}, false)
	if err == nil || !strings.Contains(err.Error(), ".ai/graph/seed/migrations/adp-to-sdf.jsonl:3: status: value must be one of") {
		t.Fatalf("want the bad row located, got %v", err)
	}
	after, _ := f.g.Hashes(ctx)
	if len(after) != len(before) {
		t.Fatalf("groups changed: %d → %d", len(before), len(after))
	}
	for k, v := range before {
		if after[k] != v {
			t.Fatalf("group %s changed", k)
		}
	}
	if _, ok, _ := f.g.Node(ctx, "component:adp-badge"); ok {
		t.Fatal("a failed sync wrote facts")
	}
}
