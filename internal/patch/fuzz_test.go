package patch

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fuzzDeadline bounds one fuzzed call; a call still running at fuzzHang
// did not terminate.
const (
	fuzzDeadline = 2 * time.Second
	fuzzHang     = 20 * time.Second
)

// bounded runs f and fails the test if it has not returned by fuzzHang
// (a context that every edit must honour ends at fuzzDeadline).
func bounded(t *testing.T, f func(ctx context.Context)) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), fuzzDeadline)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(ctx)
	}()
	select {
	case <-done:
	case <-time.After(fuzzHang):
		t.Fatalf("the edit did not return within %s", fuzzHang)
	}
}

// FuzzApplyEdits: replace_text on any content, find and occurrence ends, and
// on success changes exactly the occurrence it names (computed here
// independently with strings.Split) and nothing else.
func FuzzApplyEdits(f *testing.F) {
	f.Add("const a = foo(a) + foo;\n", "foo", "bar", 2)
	f.Add("aaaa", "aa", "a", 0)
	f.Add("aaaa", "aa", "aaaa", 2)
	f.Add("", "", "x", 0)
	f.Add("abc", "", "", 1)
	f.Add("x\x00y\xff", "\xff", "é", 1)
	f.Fuzz(func(t *testing.T, content, find, replace string, occurrence int) {
		bounded(t, func(ctx context.Context) {
			out, probs := Apply(ctx, content, []Edit{{Op: "replace_text", Find: find, Replace: replace, Occurrence: occurrence}}, Options{})
			if len(probs) > 0 {
				if out != "" || probs[0].Kind == "" {
					t.Fatalf("problems %+v with output %q", probs, out)
				}
				return
			}
			parts := strings.Split(content, find)
			k := max(occurrence, 1)
			if find == "" || k >= len(parts) || occurrence == 0 && len(parts) != 2 {
				t.Fatalf("replace_text applied where it should not: find %q occurrence %d in %q", find, occurrence, content)
			}
			want := strings.Join(parts[:k], find) + replace + strings.Join(parts[k:], find)
			if out != want {
				t.Fatalf("got %q, want %q", out, want)
			}
		})
	})
}

// fuzzFiles are the file names FuzzCodemods picks a grammar with.
var fuzzFiles = []string{"a.ts", "a.tsx", "a.js", "a.go", "a.py", "a.java", "a.html", "a.component.ts"}

var fuzzCodemods = []string{"rename_identifier_in_file", "update_import_specifier", "update_route_path_literal", "rewrite_template_tag"}

// FuzzCodemods: every built-in codemod on any content, file kind and params
// ends, never panics, and replaces only byte ranges holding what its syntax
// names: the output is the input with those ranges replaced and every other
// byte as it was.
func FuzzCodemods(f *testing.F) {
	f.Add(uint8(0), uint8(0), "import { Foo } from './x';\nconst s = 'Foo'; // Foo\nlet y: Foo = new Foo();\n", "Foo", "Bar", "./x")
	f.Add(uint8(0), uint8(3), "package main\nfunc f() { x := x; _ = \"x\" }\n", "x", "x", "")
	f.Add(uint8(0), uint8(2), "let a = a + aa;", "a", "aa", "")
	f.Add(uint8(1), uint8(0), "import A, { B as C } from './m';\nexport { B } from './m';\nimport('./m');\n", "B", "D", "./m")
	f.Add(uint8(2), uint8(0), "const r = [{ path: 'a', redirectTo: '/a', component: A }, { path: 'a' }];\n", "a", "b", "")
	f.Add(uint8(3), uint8(6), "@if (x) {\n<adp-alert type=\"w\" [message]=\"m\" (closed)=\"c()\"/>\n}\n<adp-alert message=\"x\"></adp-alert>", "adp-alert", "sdf-alert", "")
	f.Add(uint8(3), uint8(7), "@Component({ template: `<adp-alert type=\"i\"></adp-alert>` }) class A {}", "adp-alert", "sdf-alert", "")
	f.Add(uint8(3), uint8(6), "<adp-alert <adp-alert></adp-alert </adp-alert>>", "adp-alert", "adp-alert", "")
	f.Fuzz(func(t *testing.T, which, fileKind uint8, content, from, to, module string) {
		name := fuzzCodemods[int(which)%len(fuzzCodemods)]
		file := fuzzFiles[int(fileKind)%len(fuzzFiles)]
		params := map[string]any{"from": from, "to": to}
		switch name {
		case "update_import_specifier":
			params = map[string]any{"module": module, "from": from, "to": to, "toModule": module + "-next"}
		case "rewrite_template_tag":
			params = map[string]any{"fromTag": from, "toTag": to, "propMappings": map[string]any{"type": "severity", "message": "children", "closed": "dismissed"}}
		}
		in := Input{File: file, Content: content, Params: params}
		bounded(t, func(ctx context.Context) {
			out, err := Builtins().Run(ctx, name, in)
			if err != nil {
				if out != "" {
					t.Fatalf("output %q with error %v", out, err)
				}
				return
			}
			sp, err := builtinSplices[name](ctx, in)
			if err != nil {
				t.Fatalf("the splices failed where the codemod succeeded: %v", err)
			}
			checkSplices(t, name, in, sp)
			if want, _ := applySplices(content, sp); out != want {
				t.Fatalf("output %q is not the input with the codemod's splices %q", out, want)
			}
		})
	})
}

var removedAttribute = regexp.MustCompile(`^\s+\S`)

// checkSplices: every replaced range holds what the codemod names.
func checkSplices(t *testing.T, name string, in Input, sp []splice) {
	t.Helper()
	for _, s := range sp {
		orig := in.Content[s.start:s.end]
		ok := false
		switch name {
		case "rename_identifier_in_file":
			ok = orig == in.Params["from"] && s.with == in.Params["to"]
		case "update_import_specifier":
			ok = orig == in.Params["module"] && s.with == in.Params["toModule"] || orig == in.Params["from"] && s.with == in.Params["to"]
		case "update_route_path_literal":
			ok = orig == in.Params["from"] && s.with == in.Params["to"]
		case "rewrite_template_tag":
			props := in.Params["propMappings"].(map[string]any)
			switch {
			case orig == in.Params["fromTag"]:
				ok = s.with == in.Params["toTag"]
			case props[orig] != nil:
				ok = s.with == props[orig]
			case s.with == "": // an attribute moved to children, with its leading space
				ok = removedAttribute.MatchString(orig)
			default: // children content: into an empty element, or replacing "/>"
				ok = strings.TrimSpace(orig) == "" || strings.TrimSpace(orig) == "/>"
			}
		}
		if !ok {
			t.Fatalf("%s replaced %q (bytes %d-%d) with %q", name, orig, s.start, s.end, s.with)
		}
	}
}
