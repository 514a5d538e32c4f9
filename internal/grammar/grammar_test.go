package grammar

import "testing"

func TestOf(t *testing.T) {
	for _, tc := range []struct {
		note, file, want string
	}{
		{note: "typescript", file: "src/app/x.component.ts", want: TypeScript},
		{note: "module typescript", file: "a.mts", want: TypeScript},
		{note: "tsx", file: "App.TSX", want: TSX},
		{note: "javascript", file: "x.cjs", want: JavaScript},
		{note: "angular template", file: "x.component.html", want: HTML},
		{note: "go", file: "cmd/main.go", want: Go},
		{note: "python stub", file: "x.pyi", want: Python},
		{note: "java", file: "A.java", want: Java},
		{note: "text only", file: "README.md", want: ""},
		{note: "no extension", file: "Makefile", want: ""},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := Of(tc.file); got != tc.want {
				t.Errorf("Of(%q) = %q, want %q", tc.file, got, tc.want)
			}
			if tc.want != "" && Languages[tc.want] == nil {
				t.Errorf("no language for %q", tc.want)
			}
		})
	}
}
