package indexer

import (
	"testing"
)

func TestQueries(t *testing.T) {
	ix, _ := indexWorkspace(t, copyWorkspace(t))
	t.Run("exact symbol lookup", func(t *testing.T) {
		got := ix.Symbols("DataTableComponent")
		if len(got) != 1 || got[0].File != "src/app/shared/ui/data-table/data-table.component.ts" || got[0].Kind != "component" {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("case-insensitive fallback", func(t *testing.T) {
		if got := ix.Symbols("datatablecomponent"); len(got) != 1 {
			t.Errorf("got %+v", got)
		}
	})
	t.Run("usages by tag prefix", func(t *testing.T) {
		adp := ix.Usages("adp-")
		sdf := ix.Usages("sdf-")
		if len(adp) != 2 || len(sdf) != 3 {
			t.Errorf("adp %d sdf %d usages, want 2 and 3", len(adp), len(sdf))
		}
	})
	t.Run("neighbors include in and out edges", func(t *testing.T) {
		kinds := map[string]bool{}
		for _, e := range ix.Neighbors("src/app/shared/ui/data-table/data-table.component.ts") {
			kinds[e.Kind] = true
		}
		for _, want := range []string{"import", "template", "declaration"} {
			if !kinds[want] {
				t.Errorf("missing %s edge, have %v", want, kinds)
			}
		}
	})
	t.Run("corpus postings", func(t *testing.T) {
		c := ix.Corpus()
		if c.DocFreq("invoic") < 2 {
			t.Errorf("want the stem invoic in several files, df=%d", c.DocFreq("invoic"))
		}
		if _, ok := c.Doc("py/billing/tax.py"); !ok {
			t.Error("tax.py should be a corpus document")
		}
	})
}

func TestAnchor(t *testing.T) {
	tests := []struct{ note, file, want string }{
		{note: "deep files stop at three levels", file: "src/app/orders/grid/x.ts", want: "src/app/orders"},
		{note: "shallow files keep their folder", file: "server/api/x.js", want: "server/api"},
		{note: "root files have no anchor", file: "README.md", want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			if got := Anchor(tt.file); got != tt.want {
				t.Errorf("Anchor(%q) = %q, want %q", tt.file, got, tt.want)
			}
		})
	}
}
