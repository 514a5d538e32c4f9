package patch

import (
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	const src = "<adp-alert type=\"x\"></adp-alert>\nconst a = foo(a) + foo;\n<adp-alert-group></adp-alert-group>\n"
	for _, tc := range []struct {
		note  string
		edits []Edit
		want  string // a substring of the result, or of the first problem when wantErr
		err   bool
	}{
		{"unique find", []Edit{{Op: "replace_text", Find: `type="x"`, Replace: `severity="x"`}}, `<adp-alert severity="x">`, false},
		{"ambiguous find", []Edit{{Op: "replace_text", Find: "foo", Replace: "bar"}}, "occurs 2 times", true},
		{"occurrence picks one", []Edit{{Op: "replace_text", Find: "foo", Replace: "bar", Occurrence: 2}}, "foo(a) + bar;", false},
		{"occurrence past the count", []Edit{{Op: "replace_text", Find: "foo", Replace: "bar", Occurrence: 3}}, "occurrence 3 asked", true},
		{"absent find", []Edit{{Op: "replace_text", Find: "nope", Replace: "x"}}, "does not occur", true},
		{"edits apply in order", []Edit{
			{Op: "replace_text", Find: "foo(a)", Replace: "baz(a)"},
			{Op: "replace_text", Find: "foo", Replace: "qux"},
		}, "baz(a) + qux;", false},
		{"rewrite tag keeps look-alike tags", []Edit{{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{"from": "adp-alert", "to": "sdf-alert"}}},
			"<sdf-alert type=\"x\"></sdf-alert>\nconst a = foo(a) + foo;\n<adp-alert-group>", false},
		{"rename identifier by word", []Edit{{Op: "codemod", Codemod: "rename_identifier_in_file", Params: map[string]any{"from": "a", "to": "b"}}},
			"const b = foo(b) + foo;", false},
		{"codemod params validated", []Edit{{Op: "codemod", Codemod: "rewrite_template_tag", Params: map[string]any{"from": "<script>", "to": "x-y"}}}, "custom element names", true},
		{"unknown codemod", []Edit{{Op: "codemod", Codemod: "rm_rf"}}, `unknown codemod "rm_rf"`, true},
		{"unknown op", []Edit{{Op: "shell"}}, `unknown op "shell"`, true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			out, probs := Apply(src, tc.edits)
			if tc.err {
				if len(probs) == 0 || !strings.Contains(probs[0].Message, tc.want) || probs[0].Path != "args.edits[0]" {
					t.Fatalf("problems %v, want one mentioning %q at args.edits[0]", probs, tc.want)
				}
				if out != "" {
					t.Errorf("content returned despite problems")
				}
				return
			}
			if len(probs) > 0 || !strings.Contains(out, tc.want) {
				t.Fatalf("got %q (problems %v), want it to contain %q", out, probs, tc.want)
			}
		})
	}
}
