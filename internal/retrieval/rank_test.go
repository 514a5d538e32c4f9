package retrieval

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/indexer"
	_ "modernc.org/sqlite"
)

// testIndex indexes the indexer's test workspace (a small Angular, Node, Go,
// Python and Java tree) copied into a temporary directory.
func testIndex(t testing.TB) *indexer.Index {
	t.Helper()
	src := filepath.Join("..", "indexer", "testdata", "workspace")
	root := filepath.Join(t.TempDir(), "ws")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "index.db")+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ix, err := indexer.Open(db, indexer.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

func files(rs []Ranked) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.File)
	}
	return out
}

func TestRank(t *testing.T) {
	ix := testIndex(t)
	tests := []struct {
		note    string
		query   Query
		topN    int
		want    []string // all must be within the first topN
		wantTop string   // the first file, if set
	}{
		{
			note:  "a migration prompt with lexemes finds the template and the component it uses",
			query: Query{Prompt: "Migrate the dashboard grid from adp-data-table to sdf-table", Lexemes: []string{"adp-data-table", "dashboard"}},
			topN:  4,
			want:  []string{"src/app/dashboard/dashboard.component.html", "src/app/shared/ui/data-table/data-table.component.ts"},
		},
		{
			note:    "prose words meet identifiers through splitting and stemming",
			query:   Query{Prompt: "fix: tax rates for invoices"},
			topN:    3,
			want:    []string{"py/billing/tax.py", "py/billing/invoice.py"},
			wantTop: "",
		},
		{
			note:    "a symbol name in the prompt ranks its definition first",
			query:   Query{Prompt: "Posting to a closed Ledger should fail with ErrClosed"},
			topN:    1,
			wantTop: "go/internal/ledger/ledger.go",
		},
		{
			note:  "the graph lane brings in the file that wires a strong hit",
			query: Query{Prompt: "status cell renderer shows the wrong badge"},
			topN:  3,
			want:  []string{"src/app/orders/grid/status-cell.renderer.ts", "src/app/orders/grid/orders-grid.component.ts"},
		},
		{
			note:  "Java services are found by their identifiers",
			query: Query{Prompt: "InvoiceService total ignores the tax table"},
			topN:  3,
			want:  []string{"java/src/main/java/com/acme/billing/InvoiceService.java", "java/src/main/java/com/acme/billing/TaxTable.java"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			got := files(Rank(ix, tt.query))
			top := got[:min(tt.topN, len(got))]
			for _, w := range tt.want {
				if !slices.Contains(top, w) {
					t.Errorf("%s not in the first %d: %q", w, tt.topN, got)
				}
			}
			if tt.wantTop != "" && (len(got) == 0 || got[0] != tt.wantTop) {
				t.Errorf("first = %q, want %s", got, tt.wantTop)
			}
		})
	}
}

func TestRankBudgets(t *testing.T) {
	ix := testIndex(t)
	q := Query{Prompt: "orders dashboard invoice ledger tax grid table component service", Limit: 3}
	if got := Rank(ix, q); len(got) != 3 {
		t.Errorf("Limit 3 returned %d files", len(got))
	}
	q = Query{Prompt: q.Prompt, MaxBytes: 1500}
	var total int64
	for _, r := range Rank(ix, q) {
		info, err := os.Stat(filepath.Join(ix.Root(), r.File))
		if err != nil {
			t.Fatal(err)
		}
		total += info.Size()
	}
	if total > 1500 {
		t.Errorf("pack of %d bytes exceeds MaxBytes 1500", total)
	}
}

func TestRankReportsLanes(t *testing.T) {
	ix := testIndex(t)
	got := Rank(ix, Query{
		Prompt: "OrdersService load page size",
		Boost:  map[string]map[string]float64{"memory": {"README.md": 1}},
	})
	lanes := map[string][]string{}
	for _, r := range got {
		lanes[r.File] = r.Lanes
	}
	if l := lanes["src/app/orders/orders.service.ts"]; !slices.Contains(l, "symbol") || !slices.Contains(l, "lexical") {
		t.Errorf("orders.service.ts lanes = %v, want lexical and symbol", l)
	}
	if l := lanes["README.md"]; !slices.Contains(l, "memory") {
		t.Errorf("a boosted file should carry its lane, got %v", l)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score {
			t.Fatalf("not in score order at %d: %+v", i, got)
		}
	}
}

func TestSearchExcludesPackFiles(t *testing.T) {
	ix := testIndex(t)
	exclude := map[string]bool{"py/billing/tax.py": true}
	got := files(Search(ix, "tax rate", exclude, 5))
	if slices.Contains(got, "py/billing/tax.py") {
		t.Errorf("excluded file returned: %q", got)
	}
	if len(got) == 0 || len(got) > 5 {
		t.Errorf("want 1..5 results, got %q", got)
	}
}

func TestQueryTerms(t *testing.T) {
	tests := []struct {
		note string
		q    Query
		want []string
	}{
		{note: "conventional prefix dropped, scope kept", q: Query{Prompt: "fix(editor): Heading"}, want: []string{"editor", "head", "editorheading", "editor-heading"}},
		{note: "stopwords removed", q: Query{Prompt: "Add the ability to export"}, want: []string{"ability", "export"}},
		{note: "adjacent words form compound identifiers", q: Query{Prompt: "command menu"}, want: []string{"command", "menu", "commandmenu", "command-menu"}},
		{note: "a capitalised head word is kept", q: Query{Prompt: "Checkstyle: DefaultComesLast"}, want: []string{"checkstyl", "defaultcomeslast", "default", "come", "last", "checkstyledefaultcomeslast", "checkstyle-defaultcomeslast"}},
		{note: "error is a code word, not a stopword", q: Query{Prompt: "fix error message"}, want: []string{"error", "messag", "errormessage", "error-message"}},
		{note: "a plural last word also forms the singular compound", q: Query{Prompt: "error pages"}, want: []string{"error", "page", "errorpages", "error-pages", "errorpage", "error-page"}},
		{note: "a word ending in s that is no plural stays whole", q: Query{Prompt: "check status"}, want: []string{"check", "status", "checkstatus", "check-status"}},
		{note: "lexemes join the query", q: Query{Prompt: "grid", Lexemes: []string{"adp-data-table"}}, want: []string{"grid", "adp-data-table", "adp", "data", "tabl"}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			var got []string
			for _, qt := range queryTerms(tt.q) {
				got = append(got, qt.term)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("terms = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFuseKeepsFilesWhoseFaintSignalsAddUp: a file no single lane finds
// strongly but several find a little (flask's json/__init__.py for "Fix
// broken func directives": "func" fourteen times, in a sixth of the tree,
// 0.047 of the best file) holds as much evidence as one lane at the floor;
// only a file whose signals stay under it in sum is dropped.
func TestFuseKeepsFilesWhoseFaintSignalsAddUp(t *testing.T) {
	got := fuse(map[string]map[int32]float64{
		"lexical": {1: 1, 2: 0.047, 3: 0.03, 4: 0.047},
		"graph":   {2: 0.1},
	})
	var docs []int32
	for _, s := range got {
		docs = append(docs, s.doc)
	}
	for _, tc := range []struct {
		note string
		doc  int32
		want bool
	}{
		{"a strong hit", 1, true},
		{"two faint signals that add up", 2, true},
		{"one signal just under the floor", 4, false},
		{"one faint signal", 3, false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if slices.Contains(docs, tc.doc) != tc.want {
				t.Errorf("fuse kept %v; doc %d kept should be %v", docs, tc.doc, tc.want)
			}
		})
	}
}

// TestCompoundFindsSingularNames: "set browser title for error pages"
// names the routes table that routes errorPage, though each of its words
// is common among the routes tables; the compound is matched in the
// number code writes it in, the singular.
func TestCompoundFindsSingularNames(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/app/app-routes.ts": `import { errorPage, forbiddenPath } from './app-routing-paths';
export const APP_ROUTES = [
  { path: errorPage, component: ThemedPageErrorComponent },
  { path: forbiddenPath, component: ThemedForbiddenComponent },
  { path: 'home', component: HomeComponent },
  { path: 'search', component: SearchComponent },
  { path: 'browse', component: BrowseComponent },
  { path: 'statistics', component: StatisticsComponent },
];
`,
		"src/app/home-page/home-page-routes.ts":      "export const ROUTES = [{ path: '', component: HomePageComponent, data: { title: 'home.title' } }];\n",
		"src/app/search-page/search-page-routes.ts":  "export const ROUTES = [{ path: '', component: SearchPageComponent, data: { title: 'search.title' } }];\n",
		"src/app/login-page/login-page-routes.ts":    "export const ROUTES = [{ path: '', component: LoginPageComponent, data: { title: 'login.title', error: true } }];\n",
		"src/app/page-error/page-error.component.ts": "export class PageErrorComponent { title = 'error.title'; }\n",
	})
	for _, tc := range []struct {
		note, prompt, want string
	}{
		{"errorPage for error pages", "set browser title for error pages", "src/app/app-routes.ts"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			got := files(Rank(ix, Query{Prompt: tc.prompt}))
			at := slices.Index(got, tc.want)
			for i, f := range got {
				if strings.HasSuffix(f, "-routes.ts") && f != tc.want && (at < 0 || i < at) {
					t.Errorf("ranking = %q: %s above %s", got, f, tc.want)
				}
			}
		})
	}
}
