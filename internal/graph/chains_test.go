package graph_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

type stepWant struct{ role, file, symbol string }

func steps(c graph.Chain) []stepWant {
	var out []stepWant
	for _, s := range c.Steps {
		out = append(out, stepWant{s.Role, s.File, s.Symbol})
	}
	return out
}

func TestChains(t *testing.T) {
	ctx := context.Background()
	root := copyWorkspace(t)
	f := newFixture(t, root)
	f.sync(t, false)
	cb := &graph.ChainBuilder{Store: f.g, Root: root}
	agGrid := []stepWant{
		{"table", "src/app/orders/grid/orders-grid.component.html", "ag-grid-angular"},
		{"columnDef", "src/app/orders/grid/orders-grid.component.ts", "id"},
		{"cellRenderer", "src/app/orders/grid/order-link.renderer.ts", "OrderLinkRenderer"},
		{"navTrigger", "src/app/orders/grid/order-link.renderer.ts", "navigate(['/orders',"},
		{"route", "src/app/app.routes.ts", "/orders/:id"},
		{"component", "src/app/orders/detail/order-detail.component.ts", "OrderDetailComponent"},
		{"service", "src/app/orders/orders.service.ts", "OrdersService"},
		{"definition", "src/app/orders/order.model.ts", "Order"},
	}
	customers := []stepWant{
		{"table", "src/app/customers/customers-grid.component.ts", "ag-grid-angular"},
		{"columnDef", "src/app/customers/customers.columns.ts", "name"},
		{"cellRenderer", "src/app/customers/customer-link.renderer.ts", "CustomerLinkRenderer"},
		{"navTrigger", "src/app/customers/customer-link.renderer.ts", `[routerLink]="['/customers',`},
		{"route", "src/app/app.routes.ts", "/customers/:id"},
		{"component", "src/app/customers/detail/customer-detail.component.ts", "CustomerDetailComponent"},
		{"service", "src/app/customers/customers.service.ts", "CustomersService"},
		{"definition", "src/app/customers/customer.model.ts", "Customer"},
	}
	federation := []stepWant{
		{"hostRoute", "src/app/app.routes.ts", "/billing → import('billing/Module')"},
		{"federationMapping", "webpack.config.js", "billing"},
		{"remoteExpose", "projects/billing/webpack.config.js", "./Module"},
		{"remoteModule", "projects/billing/src/app/billing/billing.module.ts", "BillingModule"},
		{"destinationComponent", "projects/billing/src/app/billing/invoice-list.component.ts", "InvoiceListComponent"},
	}
	reports := []stepWant{
		{"hostRoute", "src/app/app.routes.ts", "/reports → loadRemoteModule(billing, ./Reports)"},
		{"federationMapping", "webpack.config.js", "billing"},
		{"remoteExpose", "projects/billing/webpack.config.js", "./Reports"},
		{"remoteModule", "projects/billing/src/app/reports/reports.module.ts", "ReportsModule"},
		{"destinationComponent", "projects/billing/src/app/reports/revenue-report.component.ts", "RevenueReportComponent"},
	}
	for _, tc := range []struct {
		note string
		req  graph.ChainRequest
		want [][]stepWant
	}{
		{note: "ag-Grid origin chains: navigate() in the renderer's class, routerLink in its inline template with the columns in their own file",
			req: graph.ChainRequest{AgGrid: true}, want: [][]stepWant{customers, agGrid}},
		{note: "federation chains: import() and loadRemoteModule()", req: graph.ChainRequest{Federation: true}, want: [][]stepWant{federation, reports}},
		{note: "both kinds, signal files first", req: graph.ChainRequest{AgGrid: true, Federation: true, Files: []string{"src/app/orders/orders.service.ts"}}, want: [][]stepWant{agGrid, customers, federation, reports}},
		{note: "at most Max per kind", req: graph.ChainRequest{AgGrid: true, Max: 1, Terms: []string{"customer"}}, want: [][]stepWant{customers}},
		{note: "signal required: only chains touching a signal", req: graph.ChainRequest{AgGrid: true, Federation: true, RequireSignal: true, Files: []string{"projects/billing/src/app/billing/billing.module.ts"}}, want: [][]stepWant{federation}},
		{note: "neither", req: graph.ChainRequest{}, want: nil},
	} {
		t.Run(tc.note, func(t *testing.T) {
			cs, err := cb.Build(ctx, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]stepWant
			for _, c := range cs {
				if !c.Complete {
					t.Errorf("%s chain incomplete, missing %v", c.Kind, c.Missing)
				}
				if len(c.Edges) != len(c.Steps)-1 {
					t.Errorf("%s: %d edges for %d steps", c.Kind, len(c.Edges), len(c.Steps))
				}
				got = append(got, steps(c))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}

	// The lexical joints say so; the graph joints name their node.
	cs, _ := cb.Build(ctx, graph.ChainRequest{AgGrid: true, Terms: []string{"orders"}})
	if e := cs[0].Edges[2]; e.From != "cellRenderer" || e.To != "navTrigger" || e.Via != "lexical" {
		t.Fatalf("navigation edge: %+v", e)
	}
	if e := cs[0].Edges[4]; e.Type != "ROUTES_TO" || e.Via != "graph" {
		t.Fatalf("route edge: %+v", e)
	}
	if got := cs[0].Files(); len(got) != 7 {
		t.Fatalf("files: %v", got)
	}

	// A renderer that no longer navigates ends the chain there and says
	// what is missing.
	r := filepath.Join(root, "src/app/orders/grid/order-link.renderer.ts")
	raw, _ := os.ReadFile(r)
	if err := os.WriteFile(r, []byte(strings.Replace(string(raw), "this.router.navigate(['/orders', this.params.value]);", "console.log(this.params.value);", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	f.sync(t, false)
	cs, err := cb.Build(ctx, graph.ChainRequest{AgGrid: true, Terms: []string{"orders"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Complete || cs[0].Steps[0].File != "src/app/orders/grid/orders-grid.component.html" || !reflect.DeepEqual(cs[0].Missing, []string{"navTrigger", "route", "component", "service", "definition"}) {
		t.Fatalf("broken chain: %+v", cs)
	}
}

// TestChainDelegatedNavigation: a renderer that calls an imported helper to
// navigate still reaches the route, one hop away.
func TestChainDelegatedNavigation(t *testing.T) {
	ctx := context.Background()
	root := copyWorkspace(t)
	nav := "import { Router } from '@angular/router';\n\nexport function openOrder(router: Router, id: string): void {\n  router.navigate(['/orders', id]);\n}\n"
	if err := os.WriteFile(filepath.Join(root, "src/app/orders/grid/order-nav.ts"), []byte(nav), 0o644); err != nil {
		t.Fatal(err)
	}
	r := filepath.Join(root, "src/app/orders/grid/order-link.renderer.ts")
	raw, _ := os.ReadFile(r)
	src := strings.Replace(string(raw), "this.router.navigate(['/orders', this.params.value]);", "openOrder(this.router, this.params.value);", 1)
	src = "import { openOrder } from './order-nav';\n" + src
	if err := os.WriteFile(r, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, root)
	f.sync(t, false)
	cs, err := (&graph.ChainBuilder{Store: f.g, Root: root}).Build(ctx, graph.ChainRequest{AgGrid: true, Terms: []string{"orders"}})
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if !c.Complete || c.Steps[3].Role != "navTrigger" || c.Steps[3].File != "src/app/orders/grid/order-nav.ts" || c.Edges[2].Type != "IMPORTS/navigates" || c.Steps[4].Symbol != "/orders/:id" {
		t.Fatalf("delegated navigation: %+v", c)
	}
}
