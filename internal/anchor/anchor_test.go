package anchor

import "testing"

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		note  string
		rules Rules
		file  string
		want  string
	}{
		{note: "root file", file: "README.md", want: ""},
		{note: "leading slash", file: "/src/app/a.ts", want: "src/app"},
		{note: "one folder", file: "src/a.ts", want: "src"},
		{note: "depth bound", file: "src/app/dashboard/widgets/x.ts", want: "src/app/dashboard"},
		{note: "custom depth", rules: Rules{MaxDepth: 1}, file: "src/app/a.ts", want: "src"},
		{note: "excluded top folder", file: "node_modules/lib/a.js", want: ""},
		{note: "excluded inner folder stops", file: "src/dist/gen/a.js", want: "src"},
		{note: "glob on the prefix", rules: Rules{Exclude: []string{"src/gen*"}}, file: "src/generated/a.ts", want: "src"},
		{note: "empty exclude list excludes nothing", rules: Rules{Exclude: []string{}}, file: "node_modules/lib/a.js", want: "node_modules/lib"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := tc.rules.Of(tc.file); got != tc.want {
				t.Errorf("Of(%q) = %q, want %q", tc.file, got, tc.want)
			}
		})
	}
}

func TestParent(t *testing.T) {
	for in, want := range map[string]string{"src/app/x": "src/app", "src": "", "": ""} {
		if got := Parent(in); got != want {
			t.Errorf("Parent(%q) = %q, want %q", in, got, want)
		}
	}
}
