package patch

import (
	"context"
	"testing"
)

type codemodCase struct {
	note   string
	file   string
	src    string
	params map[string]any
	want   string // the whole result, or the problem's message when kind is set
	kind   string
}

func runCodemodCases(t *testing.T, codemod string, cases []codemodCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.note, func(t *testing.T) {
			in := Input{File: tc.file, Content: tc.src, Params: tc.params}
			out, err := Builtins().Run(context.Background(), codemod, in)
			if tc.kind != "" {
				kind, msg := "", ""
				if err != nil {
					kind, msg = kindOf(err)
				}
				if kind != tc.kind || msg != tc.want {
					t.Fatalf("got %q, error %s %q; want error %s %q", out, kind, msg, tc.kind, tc.want)
				}
				return
			}
			if err != nil || out != tc.want {
				t.Fatalf("got (error %v)\n%s\nwant\n%s", err, out, tc.want)
			}
		})
	}
}

const tsService = `import { Injectable } from '@angular/core';
import { OrderSummary } from './order';

/** Loads OrderSummary rows; "OrderSummary" in a comment stays. */
@Injectable({ providedIn: 'root' })
export class OrdersService {
  private cache: OrderSummary[] = [];
  label = 'OrderSummary list';
  latest(): OrderSummary[] {
    const OrderSummaryCount = this.cache.length; // a longer name stays
    return this.cache.filter((s: OrderSummary) => ` + "`${s.id} OrderSummary`" + ` !== '');
  }
}
`

func TestRenameIdentifier(t *testing.T) {
	runCodemodCases(t, "rename_identifier_in_file", []codemodCase{
		{note: "typescript: types, imports, not strings or comments", file: "src/orders.service.ts", src: tsService,
			params: map[string]any{"from": "OrderSummary", "to": "OrderRow"},
			want: `import { Injectable } from '@angular/core';
import { OrderRow } from './order';

/** Loads OrderSummary rows; "OrderSummary" in a comment stays. */
@Injectable({ providedIn: 'root' })
export class OrdersService {
  private cache: OrderRow[] = [];
  label = 'OrderSummary list';
  latest(): OrderRow[] {
    const OrderSummaryCount = this.cache.length; // a longer name stays
    return this.cache.filter((s: OrderRow) => ` + "`${s.id} OrderSummary`" + ` !== '');
  }
}
`},
		{note: "typescript: members and template substitutions", file: "a.ts",
			src:    "const o = { cache, total: 1 };\nthis.cache.push(`${cache}`);\n",
			params: map[string]any{"from": "cache", "to": "rows"},
			want:   "const o = { rows, total: 1 };\nthis.rows.push(`${rows}`);\n"},
		{note: "go: identifiers, fields and labels, not strings", file: "main.go",
			src:    "package main\n\n// total is summed\nfunc sum(xs []int) (total int) {\nloop:\n\tfor _, x := range xs {\n\t\ttotal += x\n\t\tcontinue loop\n\t}\n\tprintln(\"total\")\n\treturn total\n}\n",
			params: map[string]any{"from": "total", "to": "acc"},
			want:   "package main\n\n// total is summed\nfunc sum(xs []int) (acc int) {\nloop:\n\tfor _, x := range xs {\n\t\tacc += x\n\t\tcontinue loop\n\t}\n\tprintln(\"total\")\n\treturn acc\n}\n"},
		{note: "python", file: "m.py",
			src:    "def load(path):\n    # path is a str\n    return open(path, 'path')\n",
			params: map[string]any{"from": "path", "to": "where"},
			want:   "def load(where):\n    # path is a str\n    return open(where, 'path')\n"},
		{note: "java", file: "A.java",
			src:    "class A { int n; /* n */ int get() { return this.n + \"n\".length(); } }\n",
			params: map[string]any{"from": "n", "to": "count"},
			want:   "class A { int count; /* n */ int get() { return this.count + \"n\".length(); } }\n"},
		{note: "rename to a name containing the old one terminates", file: "a.js",
			src: "let a = a + aa;\n", params: map[string]any{"from": "a", "to": "aa"}, want: "let aa = aa + aa;\n"},
		{note: "only in strings and comments", file: "a.ts", src: "// Foo\nconst s = 'Foo';\n",
			params: map[string]any{"from": "Foo", "to": "Bar"},
			want:   `identifier "Foo" does not occur outside strings and comments`, kind: KindNoMatch},
		{note: "html has no identifiers", file: "a.html", src: "<p>x</p>", params: map[string]any{"from": "x", "to": "y"},
			want: `rename_identifier_in_file works on .ts .mts .cts .tsx .js .jsx .mjs .cjs .go .py .pyi .java files, not "a.html"`, kind: KindUnsupported},
	})
}

const dashboardModule = `import { NgModule } from '@angular/core';
import { AdpAlertComponent } from '../shared/ui/alert/adp-alert.component';
import { AdpAlertComponent as Alert, ALERT_TYPES } from "../shared/ui/alert/adp-alert.component";
export { AdpAlertComponent } from '../shared/ui/alert/adp-alert.component';
// import { AdpAlertComponent } from '../shared/ui/alert/adp-alert.component';
const lazy = () => import('../shared/ui/alert/adp-alert.component').then((m) => m.AdpAlertComponent);

@NgModule({ imports: [AdpAlertComponent, Alert] })
export class DashboardModule {}
`

func TestUpdateImportSpecifier(t *testing.T) {
	const module = "../shared/ui/alert/adp-alert.component"
	runCodemodCases(t, "update_import_specifier", []codemodCase{
		{note: "module and name; aliases, comments and uses stay", file: "dashboard.module.ts", src: dashboardModule,
			params: map[string]any{"module": module, "from": "AdpAlertComponent", "to": "SdfAlertComponent", "toModule": "@sdf/components/alert"},
			want: `import { NgModule } from '@angular/core';
import { SdfAlertComponent } from '@sdf/components/alert';
import { SdfAlertComponent as Alert, ALERT_TYPES } from "@sdf/components/alert";
export { SdfAlertComponent } from '@sdf/components/alert';
// import { AdpAlertComponent } from '../shared/ui/alert/adp-alert.component';
const lazy = () => import('@sdf/components/alert').then((m) => m.AdpAlertComponent);

@NgModule({ imports: [AdpAlertComponent, Alert] })
export class DashboardModule {}
`},
		{note: "module only", file: "a.ts", src: "import x from './old';\nimport y from './older';\n",
			params: map[string]any{"module": "./old", "toModule": "./new"},
			want:   "import x from './new';\nimport y from './older';\n"},
		{note: "default import renamed", file: "a.js", src: "import Old, { other } from './m';\n",
			params: map[string]any{"module": "./m", "from": "Old", "to": "New"},
			want:   "import New, { other } from './m';\n"},
		{note: "module absent", file: "a.ts", src: "import { A } from './a';\n",
			params: map[string]any{"module": "./b", "toModule": "./c"}, want: `no import of "./b" in the file`, kind: KindNoMatch},
		{note: "name absent from the module's imports", file: "a.ts", src: "import { A } from './a';\nconst B = 1;\n",
			params: map[string]any{"module": "./a", "from": "B", "to": "C"}, want: `the imports of "./a" do not name "B"`, kind: KindNoMatch},
		{note: "identity", file: "a.ts", src: "import { A } from './a';\n",
			params: map[string]any{"module": "./a", "toModule": "./a"}, want: "the params change nothing (from equals to, toModule equals module)", kind: KindNoChange},
		{note: "from without to", file: "a.ts", src: "import { A } from './a';\n",
			params: map[string]any{"module": "./a", "from": "A"}, want: "the params from, to go together", kind: KindInvalidParams},
	})
}

const appRoutes = `import { Routes } from '@angular/router';

export const routes: Routes = [
  { path: '', redirectTo: 'dashboard', pathMatch: 'full' },
  {
    path: 'dashboard',
    loadChildren: () => import('./dashboard/dashboard.module').then((m) => m.DashboardModule),
  },
  { path: 'orders', children: [{ path: 'dashboard', component: OrdersDashboard }] },
  { path: 'legacy', redirectTo: "/dashboard" },
];
const notARoute = { path: 'dashboard' };
const label = 'dashboard';
`

func TestUpdateRoutePathLiteral(t *testing.T) {
	runCodemodCases(t, "update_route_path_literal", []codemodCase{
		{note: "paths and redirects in route objects only", file: "app.routes.ts", src: appRoutes,
			params: map[string]any{"from": "dashboard", "to": "home"},
			want: `import { Routes } from '@angular/router';

export const routes: Routes = [
  { path: '', redirectTo: 'home', pathMatch: 'full' },
  {
    path: 'home',
    loadChildren: () => import('./dashboard/dashboard.module').then((m) => m.DashboardModule),
  },
  { path: 'orders', children: [{ path: 'home', component: OrdersDashboard }] },
  { path: 'legacy', redirectTo: "/home" },
];
const notARoute = { path: 'dashboard' };
const label = 'dashboard';
`},
		{note: "the empty path", file: "r.ts", src: "const r = [{ path: '', component: Home }];\n",
			params: map[string]any{"from": "", "to": "start"}, want: "const r = [{ path: 'start', component: Home }];\n"},
		{note: "absent", file: "r.ts", src: "const r = [{ path: 'a', component: A }];\n",
			params: map[string]any{"from": "b", "to": "c"}, want: `no route path or redirectTo "b" in a route definition`, kind: KindNoMatch},
		{note: "quotes in to are refused", file: "r.ts", src: "const r = [{ path: 'a', component: A }];\n",
			params: map[string]any{"from": "a", "to": "b'"}, want: "param to must match ^[A-Za-z0-9_./:*~-]*$", kind: KindInvalidParams},
	})
}

const dashboardTemplate = `<h1>{{ title }}</h1>
<!-- <adp-alert type="info"> in a comment stays -->
@if (lowStock) {
  <adp-alert type="warning" [message]="stockMessage" dismissible (closed)="hide()"></adp-alert>
} @else {
  <adp-alert [type]="level" [(open)]="isOpen" message="All good" />
}
@for (order of orders; track order.id) {
  <div class="row"><adp-alert type="info"><b>{{ order.id }}</b> adp-alert</adp-alert></div>
}
<adp-alert-group type="x"></adp-alert-group>
`

func TestRewriteTemplateTag(t *testing.T) {
	mappings := map[string]any{"type": "severity", "open": "expanded", "closed": "dismissed"}
	runCodemodCases(t, "rewrite_template_tag", []codemodCase{
		{note: "tags, attributes and bindings; control flow and comments intact", file: "dashboard.component.html", src: dashboardTemplate,
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": mappings},
			want: `<h1>{{ title }}</h1>
<!-- <adp-alert type="info"> in a comment stays -->
@if (lowStock) {
  <sdf-alert severity="warning" [message]="stockMessage" dismissible (dismissed)="hide()"></sdf-alert>
} @else {
  <sdf-alert [severity]="level" [(expanded)]="isOpen" message="All good" />
}
@for (order of orders; track order.id) {
  <div class="row"><sdf-alert severity="info"><b>{{ order.id }}</b> adp-alert</sdf-alert></div>
}
<adp-alert-group type="x"></adp-alert-group>
`},
		{note: "children: static value, binding, self-closing", file: "a.html",
			src:    "<adp-alert type=\"warning\" message=\"Low <stock>\"></adp-alert>\n<adp-alert [message]=\"msg\"/>\n<adp-alert message=\"x\">\n</adp-alert>\n",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"type": "severity", "message": "children"}},
			want:   "<sdf-alert severity=\"warning\">Low &lt;stock></sdf-alert>\n<sdf-alert>{{ msg }}</sdf-alert>\n<sdf-alert>x</sdf-alert>\n"},
		{note: "children into an element that has content", file: "a.html",
			src:    "<adp-alert message=\"x\"><b>y</b></adp-alert>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"message": "children"}},
			want:   "<adp-alert> already has content; cannot move an attribute into it", kind: KindConflict},
		{note: "an event binding cannot become children", file: "a.html",
			src:    "<adp-alert (message)=\"x()\"></adp-alert>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"message": "children"}},
			want:   "<adp-alert (message)>: a (binding) cannot become content", kind: KindConflict},
		{note: "raw text, attribute values and comments are not markup", file: "a.html",
			src:    "<script>let s = '<adp-alert type=\"x\">';</script>\n<textarea><adp-alert type=\"y\"></textarea>\n<p title=\"<adp-alert type=z>\"></p><!-- <adp-alert --><adp-alert type=\"w\"></adp-alert>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": mappings},
			want:   "<script>let s = '<adp-alert type=\"x\">';</script>\n<textarea><adp-alert type=\"y\"></textarea>\n<p title=\"<adp-alert type=z>\"></p><!-- <adp-alert --><sdf-alert severity=\"w\"></sdf-alert>"},
		{note: "markup Angular reads where a browser would not", file: "a.html",
			src:    "<noscript><adp-alert type=\"a\"></adp-alert></noscript><?x <adp-alert type=\"b\"> </ 1 <adp-alert type=\"c\"><svg><title><adp-alert type=\"d\"></title></svg><![CDATA[ <adp-alert type=\"e\"> ]]>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": mappings},
			want:   "<noscript><sdf-alert severity=\"a\"></sdf-alert></noscript><?x <sdf-alert severity=\"b\"> </ 1 <sdf-alert severity=\"c\"><svg><title><sdf-alert severity=\"d\"></title></svg><![CDATA[ <adp-alert type=\"e\"> ]]>"},
		{note: "attributes as the standard reads them: unquoted, after a slash, a stray end tag", file: "a.html",
			src:    "<adp-alert type=warning/closed=\"c()\" data-type='type'></div></adp-alert>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": mappings},
			want:   "<sdf-alert severity=warning/closed=\"c()\" data-type='type'></div></sdf-alert>"},
		{note: "children from an attribute not separated by a space", file: "a.html",
			src:    "<adp-alert type=\"w\"message=\"x\"></adp-alert>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"message": "children"}},
			want:   "<adp-alert message>: the attribute is not separated by a space, so it is not moved", kind: KindConflict},
		{note: "children into an element never closed", file: "a.html",
			src:    "<div><adp-alert message=\"x\"></div>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"message": "children"}},
			want:   "<adp-alert> has no closing tag to put its children content before", kind: KindConflict},
		{note: "inline template of a component", file: "alert-demo.component.ts",
			src:    "@Component({\n  selector: 'app-demo',\n  template: `\n    @if (on) { <adp-alert type=\"info\">Hi</adp-alert> }\n  `,\n})\nexport class Demo { tag = '<adp-alert>'; }\n",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"type": "severity"}},
			want:   "@Component({\n  selector: 'app-demo',\n  template: `\n    @if (on) { <sdf-alert severity=\"info\">Hi</sdf-alert> }\n  `,\n})\nexport class Demo { tag = '<adp-alert>'; }\n"},
		{note: "absent tag", file: "a.html", src: "<adp-alert-group></adp-alert-group>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert"}, want: "tag <adp-alert> does not occur", kind: KindNoMatch},
		{note: "identity", file: "a.html", src: "<adp-alert></adp-alert>",
			params: map[string]any{"fromTag": "adp-alert", "toTag": "adp-alert"}, want: `fromTag and toTag are both "adp-alert"; nothing changes`, kind: KindNoChange},
	})
}

// TestRewriteTemplateTagRules: without a propMappings param the tag's
// MigrationRule supplies them.
func TestRewriteTemplateTagRules(t *testing.T) {
	rules := func(tag string) (MigrationRule, bool) {
		if tag != "adp-alert" {
			return MigrationRule{}, false
		}
		return MigrationRule{FromTag: tag, ToTag: "sdf-alert", PropMappings: map[string]string{"type": "severity", "message": "children"}}, true
	}
	r := Builtins().WithRules(rules)
	out, err := r.Run(context.Background(), "rewrite_template_tag", Input{File: "a.html",
		Content: `<adp-alert type="warning" message="Low stock"></adp-alert>`,
		Params:  map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert"}})
	if want := `<sdf-alert severity="warning">Low stock</sdf-alert>`; err != nil || out != want {
		t.Fatalf("got %q (%v), want %q", out, err, want)
	}
}
