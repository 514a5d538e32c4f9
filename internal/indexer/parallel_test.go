package indexer

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestParallelBuildEqualsSequential indexes one tree with one worker and
// with several, and checks that the databases hold the same rows in the
// same order: the workers finish files out of order, but the batches take
// them in walk order. The tree has more files than a batch and than the
// window of files parsed ahead, and files of very different sizes, so the
// workers do overtake each other.
func TestParallelBuildEqualsSequential(t *testing.T) {
	root := copyWorkspace(t)
	for i := range batchSize + processWindow + 17 {
		var src strings.Builder
		fmt.Fprintf(&src, "import { OrdersService } from '../../src/app/orders/orders.service';\n")
		for j := range (i % 7) * (i % 5) * 6 { // from nothing to 144 lines
			fmt.Fprintf(&src, "export function handler%dStep%d(orders: OrdersService) { return orders.load(%d); }\n", i, j, j)
		}
		writeFile(t, root, fmt.Sprintf("gen/batch%d/file%03d.ts", i%5, i), []byte(src.String()))
	}
	dump := func(workers int) []string {
		db := openDB(t, t.TempDir())
		ix, err := Open(db, Options{Root: root, Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Refresh(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
		return dumpIndexTables(t, db)
	}
	want := dump(1)
	if len(want) < batchSize+processWindow {
		t.Fatalf("only %d rows indexed", len(want))
	}
	for _, workers := range []int{2, 5} {
		got := dump(workers)
		if len(got) != len(want) {
			t.Fatalf("%d workers: %d rows, one worker %d", workers, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%d workers: row %d is\n%.300s\none worker wrote\n%.300s", workers, i, got[i], want[i])
			}
		}
	}
}

// dumpIndexTables returns every row of the idx_ tables in storage order,
// one string per row.
func dumpIndexTables(t *testing.T, db *sql.DB) []string {
	t.Helper()
	var out []string
	for _, table := range []string{"idx_files", "idx_symbols", "idx_refs", "idx_usages", "idx_problems"} {
		rows, err := db.Query("SELECT rowid, * FROM " + table + " ORDER BY rowid")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					vals[i] = string(b)
				}
			}
			out = append(out, fmt.Sprintf("%s %q", table, fmt.Sprint(vals...)))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return out
}
