package patch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/config"
)

func TestApply(t *testing.T) {
	const src = "<adp-alert type=\"x\"></adp-alert>\nconst a = foo(a) + foo;\n<adp-alert-group></adp-alert-group>\n"
	for _, tc := range []struct {
		note  string
		file  string
		edits []Edit
		want  string // the whole result, or the first problem's message when kind is set
		kind  string
	}{
		{note: "unique find", edits: []Edit{{Op: "replace_text", Find: `type="x"`, Replace: `severity="x"`}},
			want: "<adp-alert severity=\"x\"></adp-alert>\nconst a = foo(a) + foo;\n<adp-alert-group></adp-alert-group>\n"},
		{note: "ambiguous find", edits: []Edit{{Op: "replace_text", Find: "foo", Replace: "bar"}},
			want: "find text occurs 2 times; give occurrence (1-2) or a longer find", kind: KindAmbiguous},
		{note: "occurrence picks one", edits: []Edit{{Op: "replace_text", Find: "foo", Replace: "bar", Occurrence: 2}},
			want: "<adp-alert type=\"x\"></adp-alert>\nconst a = foo(a) + bar;\n<adp-alert-group></adp-alert-group>\n"},
		{note: "occurrence past the count", edits: []Edit{{Op: "replace_text", Find: "foo", Replace: "bar", Occurrence: 3}},
			want: "occurrence 3 asked, the find text occurs 2 times", kind: KindOccurrence},
		{note: "absent find", edits: []Edit{{Op: "replace_text", Find: "nope", Replace: "x"}},
			want: "find text does not occur in the file", kind: KindNoMatch},
		{note: "empty find", edits: []Edit{{Op: "replace_text", Find: "", Replace: "x"}},
			want: "find is empty", kind: KindInvalidEdit},
		{note: "negative occurrence", edits: []Edit{{Op: "replace_text", Find: "foo", Replace: "x", Occurrence: -1}},
			want: "occurrence must be 1 or more", kind: KindInvalidEdit},
		{note: "replacement containing the find is not rescanned",
			edits: []Edit{{Op: "replace_text", Find: "a = ", Replace: "a = a = ", Occurrence: 1}},
			want:  "<adp-alert type=\"x\"></adp-alert>\nconst a = a = foo(a) + foo;\n<adp-alert-group></adp-alert-group>\n"},
		{note: "edits apply in order", edits: []Edit{
			{Op: "replace_text", Find: "foo(a)", Replace: "baz(a)"},
			{Op: "replace_text", Find: "foo", Replace: "qux"},
		}, want: "<adp-alert type=\"x\"></adp-alert>\nconst a = baz(a) + qux;\n<adp-alert-group></adp-alert-group>\n"},
		{note: "rewrite tag keeps look-alike tags", file: "a.html",
			edits: []Edit{{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{"from": "adp-alert", "to": "sdf-alert"}}},
			want:  "<sdf-alert type=\"x\"></sdf-alert>\nconst a = foo(a) + foo;\n<adp-alert-group></adp-alert-group>\n"},
		{note: "codemod params validated", file: "a.html",
			edits: []Edit{{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{"fromTag": "<script>", "toTag": "x-y"}}},
			want:  "param fromTag must match ^[a-z][a-z0-9]*(-[a-z0-9]+)+$", kind: KindInvalidParams},
		{note: "unknown param", file: "a.ts",
			edits: []Edit{{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "a", "to": "b", "scope": "all"}}},
			want:  `unknown param "scope"`, kind: KindInvalidParams},
		{note: "unknown codemod", edits: []Edit{{Op: "codemod", Codemod: "rm_rf"}},
			want: `unknown codemod "rm_rf" (one of rename_identifier_in_file, rewrite_template_tag, update_import_specifier, update_route_path_literal)`, kind: KindUnknownCodemod},
		{note: "unknown op", edits: []Edit{{Op: "shell"}}, want: `unknown op "shell" (replace_text, codemod or set_content)`, kind: KindInvalidEdit},
		{note: "codemod on a file without its grammar", file: "notes.md",
			edits: []Edit{{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "a", "to": "b"}}},
			want:  `rename_identifier_in_file works on .ts .mts .cts .tsx .js .jsx .mjs .cjs .go .py .pyi .java files, not "notes.md"`, kind: KindUnsupported},
		{note: "identity rename is a problem, at once", file: "a.ts",
			edits: []Edit{{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "foo", "to": "foo"}}},
			want:  `from and to are both "foo"; the rename changes nothing`, kind: KindNoChange},
	} {
		t.Run(tc.note, func(t *testing.T) {
			out, probs := Apply(context.Background(), src, tc.edits, Options{File: tc.file})
			if tc.kind != "" {
				if len(probs) != 1 || probs[0].Message != tc.want || probs[0].Kind != tc.kind || probs[0].Path != "args.edits[0]" {
					t.Fatalf("problems %+v, want one {args.edits[0] %q %s}", probs, tc.want, tc.kind)
				}
				if out != "" {
					t.Errorf("content returned despite problems")
				}
				return
			}
			if len(probs) > 0 || out != tc.want {
				t.Fatalf("got %q (problems %v), want %q", out, probs, tc.want)
			}
		})
	}
}

// TestApplyDeadline: an ended context is a deadline_exceeded problem per
// edit, whatever the edit, and Apply returns at once.
func TestApplyDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := strings.Repeat("const foo = foo + 1; // foo\n", 20000)
	edits := []Edit{
		{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "foo", "to": "bar"}},
		{Op: "replace_text", Find: "const", Replace: "let", Occurrence: 1},
	}
	out, probs := Apply(ctx, big, edits, Options{File: "big.ts"})
	if out != "" || len(probs) != 2 {
		t.Fatalf("got %d bytes and problems %+v, want two problems", len(out), probs)
	}
	for i, p := range probs {
		if p.Kind != KindDeadline || p.Message != "the edit did not finish within the time allowed" {
			t.Errorf("problem %d = %+v, want a deadline_exceeded one", i, p)
		}
	}
	// A deadline that passes mid-parse stops the parser.
	ctx, cancel = context.WithTimeout(context.Background(), time.Microsecond)
	defer cancel()
	time.Sleep(time.Millisecond)
	if _, probs := Apply(ctx, big, edits[:1], Options{File: "big.ts"}); len(probs) != 1 || probs[0].Kind != KindDeadline {
		t.Fatalf("problems %+v, want deadline_exceeded", probs)
	}
	// A cancellation (a SIGTERM) with no deadline stops a parse under way.
	ctx, cancelNow := context.WithCancel(context.Background())
	huge := strings.Repeat(big, 10)
	time.AfterFunc(5*time.Millisecond, cancelNow)
	if _, probs := Apply(ctx, huge, edits[:1], Options{File: "big.ts"}); len(probs) != 1 || probs[0].Kind != KindDeadline {
		t.Fatalf("problems %+v, want deadline_exceeded", probs)
	}
}

func TestApplyOutputLimit(t *testing.T) {
	src := strings.Repeat("a;\n", 1000)
	_, probs := Apply(context.Background(), src, []Edit{
		{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "a", "to": strings.Repeat("b", 200)}},
	}, Options{File: "x.js", MaxOutputBytes: 10000})
	if len(probs) != 1 || probs[0].Kind != KindTooLarge {
		t.Fatalf("problems %+v, want output_too_large", probs)
	}
}

func TestNewRegistry(t *testing.T) {
	step := func(codemod string, params map[string]any) config.CodemodStep {
		return config.CodemodStep{Codemod: codemod, Params: params}
	}
	for _, tc := range []struct {
		note   string
		custom map[string]config.CustomCodemod
		err    string
	}{
		{"a sequence of built-ins", map[string]config.CustomCodemod{"migrate_alert": {Steps: []config.CodemodStep{
			step("rewrite_template_tag", map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert"}),
		}}}, ""},
		{"shadows a built-in", map[string]config.CustomCodemod{"rewrite_template_tag": {Steps: []config.CodemodStep{
			step("rewrite_template_tag", map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert"}),
		}}}, "codemods.custom.rewrite_template_tag: the name of a built-in codemod"},
		{"unknown step", map[string]config.CustomCodemod{"m": {Steps: []config.CodemodStep{step("sed", nil)}}},
			`codemods.custom.m.steps[0]: "sed" is not a built-in codemod`},
		{"bad step params", map[string]config.CustomCodemod{"m": {Steps: []config.CodemodStep{
			step("rename_identifier_in_file", map[string]any{"from": "a b", "to": "c"}),
		}}}, "codemods.custom.m.steps[0] (rename_identifier_in_file): param from must match ^[A-Za-z_$][A-Za-z0-9_$]*$"},
		{"no steps", map[string]config.CustomCodemod{"m": {}}, "codemods.custom.m: steps is empty"},
		{"bad name", map[string]config.CustomCodemod{"Migrate": {Steps: []config.CodemodStep{step("rewrite_template_tag", nil)}}},
			"codemods.custom.Migrate: a codemod name is lower case letters, digits and _"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			r, err := NewRegistry(tc.custom)
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Custom()) != len(tc.custom) {
					t.Errorf("custom codemods %v", r.Custom())
				}
				return
			}
			if err == nil || err.Error() != tc.err {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
		})
	}
}

// TestCustomCodemod: a configured sequence runs its steps in order with
// their fixed params and takes none from the request.
func TestCustomCodemod(t *testing.T) {
	r, err := NewRegistry(map[string]config.CustomCodemod{"adp_alert_module": {Steps: []config.CodemodStep{
		{Codemod: "update_import_specifier", Params: map[string]any{"module": "./adp-alert.component", "toModule": "@sdf/alert"}},
		{Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "AdpAlertComponent", "to": "SdfAlertComponent"}},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	src := "import { AdpAlertComponent } from './adp-alert.component';\n\n@NgModule({ imports: [AdpAlertComponent] })\nexport class M {} // AdpAlertComponent\n"
	want := "import { SdfAlertComponent } from '@sdf/alert';\n\n@NgModule({ imports: [SdfAlertComponent] })\nexport class M {} // AdpAlertComponent\n"
	out, probs := Apply(context.Background(), src, []Edit{{Op: "codemod", Codemod: "adp_alert_module"}}, Options{File: "m.ts", Registry: r})
	if len(probs) > 0 || out != want {
		t.Fatalf("got %q (%v), want %q", out, probs, want)
	}
	_, probs = Apply(context.Background(), src, []Edit{{Op: "codemod", Codemod: "adp_alert_module", Params: map[string]any{"from": "x"}}}, Options{File: "m.ts", Registry: r})
	if len(probs) != 1 || probs[0].Kind != KindInvalidParams {
		t.Fatalf("problems %+v, want invalid_params", probs)
	}
}

// TestPathologicalInputs: shapes that are quadratic or unbounded for a
// naive implementation (an element with many attributes, deep nesting,
// thousands of adjacent matches) finish and change only what they name.
func TestPathologicalInputs(t *testing.T) {
	manyAttrs := "<adp-alert" + strings.Repeat(" type=\"x\"", 20000) + "></adp-alert>"
	deep := strings.Repeat("<adp-alert>", 5000) + strings.Repeat("</adp-alert>", 5000)
	adjacent := strings.Repeat("a,", 50000)
	for _, tc := range []struct {
		note, file, src string
		edit            Edit
		check           func(out string) bool
	}{
		{"many attributes", "a.html", manyAttrs,
			Edit{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "propMappings": map[string]any{"type": "severity"}}},
			func(out string) bool {
				return out == strings.ReplaceAll(strings.ReplaceAll(manyAttrs, "adp-", "sdf-"), "type=", "severity=")
			}},
		{"deep nesting", "a.html", deep,
			Edit{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert"}},
			// The parser's recovery may leave some of the innermost tags
			// unnamed; the named ones change and nothing else does.
			func(out string) bool { return out != deep && strings.ReplaceAll(out, "sdf-", "adp-") == deep }},
		{"adjacent identifiers", "a.js", adjacent,
			Edit{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "a", "to": "a2"}},
			func(out string) bool { return out == strings.ReplaceAll(adjacent, "a", "a2") }},
		{"overlapping find", "a.txt", strings.Repeat("a", 100001),
			Edit{Op: "replace_text", Find: "aa", Replace: "b", Occurrence: 50000},
			func(out string) bool { return out == strings.Repeat("a", 99998)+"b"+"a" }},
	} {
		t.Run(tc.note, func(t *testing.T) {
			out, probs := Apply(context.Background(), tc.src, []Edit{tc.edit}, Options{File: tc.file})
			if len(probs) > 0 || !tc.check(out) {
				t.Fatalf("problems %+v; output (%d bytes) %.200q", probs, len(out), out)
			}
		})
	}
}

// TestQueryCodemod: a configured tree-sitter query codemod replaces its
// capture in every match with the template, and only that.
func TestQueryCodemod(t *testing.T) {
	r, err := NewRegistry(map[string]config.CustomCodemod{
		"console_to_logger": {Language: "typescript", Capture: "call",
			Query:   `((call_expression function: (member_expression object: (identifier) @obj property: (property_identifier) @level) arguments: (arguments) @args) @call (#eq? @obj "console"))`,
			Replace: "this.logger.${level}${args}"},
		"sdf_selector": {Language: "html", Capture: "name",
			Query: `((tag_name) @name (#match? @name "^adp-"))`, Replace: "sdf-x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	src := "export class A {\n  f() {\n    console.warn('console.log(x)', 1); // console.error(y)\n    other.log(2);\n    console.error(err);\n  }\n}\n"
	want := "export class A {\n  f() {\n    this.logger.warn('console.log(x)', 1); // console.error(y)\n    other.log(2);\n    this.logger.error(err);\n  }\n}\n"
	out, probs := Apply(context.Background(), src, []Edit{{Op: "codemod", Codemod: "console_to_logger"}}, Options{File: "a.ts", Registry: r})
	if len(probs) > 0 || out != want {
		t.Fatalf("got %q (%v), want %q", out, probs, want)
	}
	out, probs = Apply(context.Background(), "<adp-alert></adp-alert><p>adp-alert</p>", []Edit{{Op: "codemod", Codemod: "sdf_selector"}}, Options{File: "a.html", Registry: r})
	if want := "<sdf-x></sdf-x><p>adp-alert</p>"; len(probs) > 0 || out != want {
		t.Fatalf("got %q (%v), want %q", out, probs, want)
	}
	_, probs = Apply(context.Background(), "x", []Edit{{Op: "codemod", Codemod: "sdf_selector"}}, Options{File: "a.ts", Registry: r})
	if len(probs) != 1 || probs[0].Kind != KindUnsupported {
		t.Fatalf("problems %+v, want unsupported_file", probs)
	}

	for _, tc := range []struct {
		note string
		cm   config.CustomCodemod
		err  string
	}{
		{"bad query", config.CustomCodemod{Language: "go", Query: "((nope) @x", Capture: "x"}, "codemods.custom.q: query: "},
		{"unknown capture", config.CustomCodemod{Language: "go", Query: "(identifier) @id", Capture: "x"}, `codemods.custom.q: capture "x" is not in the query (it has id)`},
		{"unknown template capture", config.CustomCodemod{Language: "go", Query: "(identifier) @id", Capture: "id", Replace: "${other}"},
			"codemods.custom.q: replace names ${other}, which is not a capture of the query"},
		{"unknown language", config.CustomCodemod{Language: "cobol", Query: "(x) @x", Capture: "x"}, `codemods.custom.q: language "cobol" is not one of`},
		{"steps and query", config.CustomCodemod{Language: "go", Query: "(identifier) @id", Capture: "id", Steps: []config.CodemodStep{{Codemod: "rename_identifier_in_file"}}},
			"codemods.custom.q: steps or a query, not both"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			_, err := NewRegistry(map[string]config.CustomCodemod{"q": tc.cm})
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Fatalf("error %v, want it to start with %q", err, tc.err)
			}
		})
	}
}
