package graph_test

import (
	"context"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

func TestGatherPolicyFacts(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, copyWorkspace(t))
	f.sync(t, false)
	pf, err := graph.GatherPolicyFacts(ctx, f.g, []string{"src/app/orders/detail/order-detail.component.html", "src/app/orders/detail/order-detail.component.ts"})
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, r := range pf.MigrationRules {
		rules = append(rules, r["id"].(string)+"="+r["status"].(string))
	}
	if got, want := rules, []string{"mig-adp-alert=approved", "mig-adp-button=candidate"}; !equal(got, want) {
		t.Fatalf("rules: %v, want %v", got, want)
	}
	var comps []string
	for _, c := range pf.Components {
		comps = append(comps, c.Tag)
	}
	if want := []string{"adp-alert", "adp-button", "sdf-alert", "sdf-button"}; !equal(comps, want) {
		t.Fatalf("components: %v, want %v", comps, want)
	}
	for _, c := range pf.Components {
		if c.Tag == "sdf-button" && (!c.Declared || len(c.Props) != 3) {
			t.Fatalf("sdf-button contract: %+v", c)
		}
	}
	grounded := map[string]bool{}
	for _, p := range pf.ProsePolicies {
		grounded[p.ID] = p.Grounded
	}
	if g, ok := grounded["prose:docs/ui-guidelines.md:5"]; !ok || !g {
		t.Fatalf("the sdf-alert rule is in scope and grounded: %+v", pf.ProsePolicies)
	}
	if g, ok := grounded["prose:docs/ui-guidelines.md:10"]; !ok || g {
		t.Fatalf("the orders-scoped grid rule is in scope and ungrounded: %+v", pf.ProsePolicies)
	}

	// A file under the billing remote: the orders-scoped rule is out of scope.
	pf, err = graph.GatherPolicyFacts(ctx, f.g, []string{"projects/billing/src/app/billing/invoice-list.component.html"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pf.ProsePolicies {
		if p.ID == "prose:docs/ui-guidelines.md:10" {
			t.Fatal("a rule scoped to src/app/orders applies to billing")
		}
	}
	if len(pf.MacroConstraints) != 0 {
		t.Fatalf("no sdf-data-grid on the page, no constraint: %+v", pf.MacroConstraints)
	}

	// A plan that names sdf-data-grid triggers the constraint whatever its
	// files use; tags without a constraint find nothing.
	for _, tc := range []struct {
		note string
		tags []string
		want []string
	}{
		{note: "named tag", tags: []string{"adp-table", "sdf-data-grid"}, want: []string{"mc-grid-no-table"}},
		{note: "no constraint", tags: []string{"adp-table", "sdf-alert"}, want: []string{}},
		{note: "no tags", tags: nil, want: []string{}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			mcs, err := graph.GatherMacroConstraints(ctx, f.g, tc.tags)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, m := range mcs {
				got = append(got, m["id"].(string))
			}
			if !equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
