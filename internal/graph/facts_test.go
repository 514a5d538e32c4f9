package graph_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/graph"
)

// TestFacts checks every kind of day-0 fact on testdata/workspace: the
// node with its properties, and the edges that tie it in.
func TestFacts(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, copyWorkspace(t))
	f.sync(t, false)
	for _, tc := range []struct {
		note  string
		id    string
		label string
		key   string
		props map[string]any // a subset the node must have
		out   []string       // "TYPE target" edges the node must have
		in    []string       // "TYPE source" edges into the node
	}{
		{note: "root domain anchor contains top-level folders", id: "anchor:", label: "DomainAnchor", key: "",
			out: []string{"CONTAINS anchor:docs", "CONTAINS anchor:projects", "CONTAINS anchor:src"}},
		{note: "anchors stop at the configured depth", id: "anchor:src/app/orders", label: "DomainAnchor", key: "src/app/orders",
			props: map[string]any{"depth": 3.0}, in: []string{"CONTAINS anchor:src/app"}},
		{note: "excluded folders are no anchors", id: "anchor:.ai"},
		{note: "file with language and anchor", id: "file:src/app/orders/orders.service.ts", label: "File", key: "src/app/orders/orders.service.ts",
			props: map[string]any{"lang": "typescript", "anchor": "src/app/orders"},
			out:   []string{"IN_ANCHOR anchor:src/app/orders", "IMPORTS file:src/app/orders/order.model.ts", "DEFINES symbol:src/app/orders/orders.service.ts#injectable:OrdersService@7"}},
		{note: "symbol header: interface", id: "symbol:src/app/orders/order.model.ts#interface:Order@1", label: "SymbolDefinition", key: "interface:Order",
			props: map[string]any{"name": "Order", "kind": "interface", "file": "src/app/orders/order.model.ts", "startLine": 1.0, "endLine": 6.0, "exported": true}},
		{note: "symbol header: route", id: "symbol:src/app/app.routes.ts#route:/orders/:id@10", label: "SymbolDefinition", key: "route:/orders/:id"},
		{note: "methods are not headers", id: "symbol:src/app/orders/orders.service.ts#method:list@10"},
		{note: "reference edges: route, renderer, template, federation", id: "file:src/app/app.routes.ts", label: "File", key: "src/app/app.routes.ts",
			out: []string{"ROUTES_TO file:src/app/orders/grid/orders-grid.component.ts", "ROUTES_TO file:src/app/orders/detail/order-detail.component.ts"}},
		{note: "renderer edge", id: "file:src/app/orders/grid/orders-grid.component.ts", label: "File", key: "src/app/orders/grid/orders-grid.component.ts",
			out: []string{"RENDERS file:src/app/orders/grid/order-link.renderer.ts", "USES_TEMPLATE file:src/app/orders/grid/orders-grid.component.html"}},
		{note: "expose edge", id: "file:projects/billing/webpack.config.js", label: "File", key: "projects/billing/webpack.config.js",
			out: []string{"EXPOSES file:projects/billing/src/app/billing/billing.module.ts"}},
		{note: "usage example with attribute summary and anchor", id: "usage:src/app/orders/detail/order-detail.component.html:1:adp-alert", label: "UsageExample", key: "adp-alert",
			props: map[string]any{"tag": "adp-alert", "file": "src/app/orders/detail/order-detail.component.html", "startLine": 1.0, "endLine": 1.0, "attrs": "*ngIf message type", "anchor": "src/app/orders"},
			out:   []string{"INSTANCE_OF component:adp-alert", "IN_ANCHOR anchor:src/app/orders"},
			in:    []string{"HAS_USAGE file:src/app/orders/detail/order-detail.component.html"}},
		{note: "used tag without a contract is an undeclared component", id: "component:adp-alert", label: "Component", key: "adp-alert",
			props: map[string]any{"declared": false}, in: []string{"MIGRATES migrationrule:mig-adp-alert"}},
		{note: "contract component with props", id: "component:sdf-button", label: "Component", key: "sdf-button",
			props: map[string]any{"declared": true, "contract": "src/design-system/components.d.ts"},
			out:   []string{"DECLARED_IN file:src/design-system/components.d.ts", "HAS_PROP prop:sdf-button.disabled", "HAS_PROP prop:sdf-button.label", "HAS_PROP prop:sdf-button.variant"},
			in:    []string{"INSTANCE_OF usage:src/app/orders/detail/order-detail.component.html:4:sdf-button"}},
		{note: "prop with type and required", id: "prop:sdf-button.label", label: "Prop", key: "label",
			props: map[string]any{"component": "sdf-button", "type": "string", "required": true}},
		{note: "optional prop", id: "prop:sdf-alert.severity", label: "Prop", key: "severity", props: map[string]any{"required": false, "type": "'info' | 'warning' | 'error'"}},
		{note: "approved migration rule", id: "migrationrule:mig-adp-alert", label: "MigrationRule", key: "adp-alert",
			props: map[string]any{"status": "approved", "toTag": "sdf-alert", "version": 1.0, "updated_by": "design-system-team", "file": ".ai/graph/seed/migrations/adp-to-sdf.jsonl", "line": 1.0,
				"propMappings": map[string]any{"type": "severity", "message": "heading"}},
			out: []string{"MIGRATES component:adp-alert", "MIGRATES_TO component:sdf-alert"}},
		{note: "unknown migration rule has no target", id: "migrationrule:mig-adp-card", label: "MigrationRule", key: "adp-card",
			props: map[string]any{"status": "unknown"}, out: []string{"MIGRATES component:adp-card"}},
		{note: "UI intent", id: "uiintent:intent-tabular-view", label: "UIIntent", key: "tabular_view", out: []string{"CONCERNS component:sdf-data-grid"}},
		{note: "component intent", id: "componentintent:ci-sdf-alert", label: "ComponentIntent", key: "sdf-alert",
			props: map[string]any{"whenNot": []any{"validation errors next to a field"}}, out: []string{"CONCERNS component:sdf-alert"}},
		{note: "macro constraint", id: "macroconstraint:mc-grid-no-table", label: "MacroConstraint", key: "sdf-data-grid",
			props: map[string]any{"forbid": []any{"adp-table"}}, out: []string{"CONCERNS component:sdf-data-grid"}},
		{note: "prose policy from docs: repository-wide, must", id: "prose:docs/ui-guidelines.md:5", label: "ProsePolicy", key: "docs/ui-guidelines.md",
			props: map[string]any{"strength": "must", "heading": "Alerts", "scopes": "", "text": "Status messages must use `sdf-alert`, never a hand-made banner."},
			out:   []string{"MENTIONS component:sdf-alert"}},
		{note: "prose policy scoped by a path it names", id: "prose:docs/ui-guidelines.md:10", label: "ProsePolicy",
			key: "docs/ui-guidelines.md", props: map[string]any{"strength": "should", "scopes": "src/app/orders"}, out: []string{"MENTIONS component:sdf-data-grid"}},
		{note: "prose policy from skills.md", id: "prose:skills.md:3", label: "ProsePolicy", key: "skills.md", props: map[string]any{"strength": "must"}},
		{note: "code fences are not policy", id: "prose:docs/ui-guidelines.md:15"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			n, ok, err := f.g.Node(ctx, tc.id)
			if err != nil {
				t.Fatal(err)
			}
			if tc.label == "" {
				if ok {
					t.Fatalf("%s should not exist: %+v", tc.id, n)
				}
				return
			}
			if !ok {
				t.Fatalf("%s missing", tc.id)
			}
			if n.Label != tc.label || n.Key != tc.key {
				t.Fatalf("label/key: got %s %q, want %s %q", n.Label, n.Key, tc.label, tc.key)
			}
			for k, v := range tc.props {
				if !reflect.DeepEqual(n.Props[k], v) {
					t.Errorf("prop %s: got %#v, want %#v", k, n.Props[k], v)
				}
			}
			checkEdges(t, f.g, tc.id, graph.Out, tc.out)
			checkEdges(t, f.g, tc.id, graph.In, tc.in)
		})
	}
}

func checkEdges(t *testing.T, s graph.Store, id string, dir graph.Direction, want []string) {
	t.Helper()
	es, err := s.Edges(context.Background(), id, dir)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, e := range es {
		other := e.To
		if dir == graph.In {
			other = e.From
		}
		have[e.Type+" "+other] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("edge %q missing (dir %d); have %v", w, dir, have)
		}
	}
}

// TestSymlinkedSourcesNotRead: a prose document or contract that is a link
// (here to a file outside the workspace) is reported, not read.
func TestSymlinkedSourcesNotRead(t *testing.T) {
	root := copyWorkspace(t)
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("- You must leak this.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "docs", "linked.md")); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, root)
	seeds, err := graph.LoadSeeds(root)
	if err != nil {
		t.Fatal(err)
	}
	facts, err := graph.Build(f.ix, seeds, graph.Options{Prose: []string{"docs/*.md"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range facts.Groups {
		for _, n := range g.Nodes {
			if n.Label == graph.LabelProsePolicy && strings.Contains(fmt.Sprint(n.Props["text"]), "leak") {
				t.Fatalf("read through a link: %+v", n)
			}
		}
	}
}

// TestUnindexedContract: a configured contract the index skips (under
// node_modules) still declares its components.
func TestUnindexedContract(t *testing.T) {
	root := copyWorkspace(t)
	dir := filepath.Join(root, "node_modules/@acme/ds/dist")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	dts := `export namespace Components { interface AcmeChip { "label": string; "tone"?: "info" | "warn"; } }
declare global { interface HTMLAcmeChipElement extends Components.AcmeChip, HTMLElement {} interface HTMLElementTagNameMap { "acme-chip": HTMLAcmeChipElement; } }`
	if err := os.WriteFile(filepath.Join(dir, "components.d.ts"), []byte(dts), 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, root)
	if f.ix.HasFile("node_modules/@acme/ds/dist/components.d.ts") {
		t.Skip("the index now indexes node_modules; this test needs a file it skips")
	}
	facts, err := graph.Build(f.ix, nil, graph.Options{Contracts: []string{"node_modules/@acme/ds/dist/*.d.ts", "../outside/*.d.ts"}})
	if err != nil {
		t.Fatal(err)
	}
	g := facts.Groups["contract:node_modules/@acme/ds/dist/components.d.ts"]
	if g == nil {
		t.Fatalf("no contract group; problems %v", facts.Problems)
	}
	var ids []string
	for _, n := range g.Nodes {
		ids = append(ids, n.ID)
	}
	if want := []string{"component:acme-chip", "prop:acme-chip.label", "prop:acme-chip.tone"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("nodes %v, want %v", ids, want)
	}
	if len(facts.Problems) != 1 || !strings.Contains(facts.Problems[0].Message, "workspace-relative") {
		t.Fatalf("a contract path outside the workspace must be reported: %v", facts.Problems)
	}
}
