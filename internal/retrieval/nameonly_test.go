package retrieval

import (
	"math"
	"slices"
	"testing"
)

func TestNameOnly(t *testing.T) {
	for _, tc := range []struct {
		note  string
		lanes []string
		want  bool
	}{
		{"a folder named like the task's word", []string{"path"}, true},
		{"a file and a definition named so, in the best files' area", []string{"anchor", "path", "symbol"}, true},
		{"the scope's folder holds it, nothing reads its text", []string{"path", "scope"}, true},
		{"its text holds the words", []string{"lexical", "path"}, false},
		{"the best hits import it", []string{"graph", "path"}, false},
		{"changed with the best hits", []string{"cochange", "symbol"}, false},
		{"the prompt quotes its text", []string{"phrase"}, false},
		{"faint signals that add up", nil, false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := nameOnly(tc.lanes); got != tc.want {
				t.Errorf("nameOnly(%v) = %v, want %v", tc.lanes, got, tc.want)
			}
		})
	}
}

// TestNameOnlyFilesRankBehindText: "fix lint errors in the login form" is
// about the form's code; the linter's own rules sit in a folder named lint
// and say nothing of logins or forms. They keep their place in the
// ranking at nameOnlyPrior of their score; the files whose text holds the
// words keep theirs whole.
func TestNameOnlyFilesRankBehindText(t *testing.T) {
	ix := indexFiles(t, map[string]string{
		"src/app/login/login-form.component.ts": `export class LoginFormComponent {
  // eslint: the login form's errors
  errors: string[] = [];
  submitLoginForm() { this.errors = validateLoginForm(this.form); }
}
`,
		"src/app/login/login-form.validators.ts": "export function validateLoginForm(form) { return form.errors ?? []; }\n",
		"lint/src/rules/no-default-value.ts":     "export const rule = { meta: { type: 'problem' }, create() { return {}; } };\n",
		"lint/src/rules/alias-imports.ts":        "export const rule = { meta: { type: 'suggestion' }, create() { return {}; } };\n",
		"lint/src/util/structure.ts":             "export function walk(node) { return node.children; }\n",
		"src/app/shared/page.component.ts":       "export class PageComponent { title = ''; }\n",
	})
	q := Query{Prompt: "fix lint errors in the login form"}
	scores := func(prior float64) map[string]Ranked {
		saved := nameOnlyPrior
		nameOnlyPrior = prior
		defer func() { nameOnlyPrior = saved }()
		out := map[string]Ranked{}
		for _, r := range Rank(ix, q) {
			out[r.File] = r
		}
		return out
	}
	whole, scaled := scores(1), scores(nameOnlyPrior)
	if len(whole) == 0 || len(whole) != len(scaled) {
		t.Fatalf("rank = %v / %v, want the same files either way", whole, scaled)
	}
	lint := 0
	for f, w := range whole {
		s := scaled[f]
		want := w.Score
		if nameOnly(w.Lanes) {
			want = w.Score * nameOnlyPrior
			lint++
			if !slices.Contains(w.Lanes, "path") {
				t.Errorf("%s is name-only by %v, want the path lane among them", f, w.Lanes)
			}
		}
		if math.Abs(s.Score-want) > 0.002 {
			t.Errorf("%s (lanes %v) scored %v, want %v", f, w.Lanes, s.Score, want)
		}
	}
	if lint == 0 {
		t.Errorf("no file was name-only: %v", scaled)
	}
	for _, f := range []string{"src/app/login/login-form.component.ts", "src/app/login/login-form.validators.ts"} {
		if nameOnly(scaled[f].Lanes) {
			t.Errorf("%s holds the task's words, but its lanes %v are name-only", f, scaled[f].Lanes)
		}
	}
}
