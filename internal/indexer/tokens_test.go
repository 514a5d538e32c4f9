package indexer

import (
	"slices"
	"testing"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		note string
		in   string
		want []string
	}{
		{note: "camelCase keeps the whole identifier and stems its parts", in: "PasteHandler", want: []string{"pastehandler", "past", "handler"}},
		{note: "snake_case splits on underscores", in: "parse_document_slug", want: []string{"parse_document_slug", "pars", "document", "slug"}},
		{note: "kebab-case tags stay whole and split", in: "adp-data-table", want: []string{"adp-data-table", "adp", "data", "tabl"}},
		{note: "acronyms end before the next word", in: "HTMLParser", want: []string{"htmlparser", "html", "parser"}},
		{note: "prose words are stemmed to meet code words", in: "pasting dropped", want: []string{"past", "drop"}},
		{note: "single-letter parts and numbers are dropped", in: "x 42 a1", want: []string{"a1"}},
		{note: "paths split on separators", in: "src/app/orders.service", want: []string{"src", "app", "order", "servic"}},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			if got := Tokenize(tt.in); !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPathTerms(t *testing.T) {
	got := PathTerms("app/editor/extensions/PasteHandler.ts")
	want := []string{"app", "editor", "extension", "pastehandler", "past", "handler"}
	if !slices.Equal(got, want) {
		t.Errorf("PathTerms = %q, want %q", got, want)
	}
}

func TestIgnoreRules(t *testing.T) {
	tests := []struct {
		note    string
		rules   []string
		path    string
		isDir   bool
		ignored bool
	}{
		{note: "plain name matches at any depth", rules: []string{"node_modules/"}, path: "a/b/node_modules", isDir: true, ignored: true},
		{note: "directory-only rule skips files of that name", rules: []string{"build/"}, path: "src/build", ignored: false},
		{note: "extension glob", rules: []string{"*.min.js"}, path: "static/app.min.js", ignored: true},
		{note: "anchored rule only matches at the root", rules: []string{"/dist"}, path: "pkg/dist", isDir: true, ignored: false},
		{note: "anchored rule matches at the root", rules: []string{"/dist"}, path: "dist", isDir: true, ignored: true},
		{note: "anchored path matches only that path", rules: []string{"/.angular/cache"}, path: ".angular/cache", isDir: true, ignored: true},
		{note: "anchored path does not match deeper", rules: []string{"/.angular/cache"}, path: "a/.angular/cache", isDir: true, ignored: false},
		{note: "anchored path does not match a longer name", rules: []string{"/src/config.local.js"}, path: "src/config.local.jsx", ignored: false},
		{note: "anchored trailing star matches in that folder", rules: []string{"/npm-debug.log.*"}, path: "npm-debug.log.123", ignored: true},
		{note: "anchored trailing star stays in that folder", rules: []string{"/logs/*"}, path: "logs/a/b", ignored: false},
		{note: "anchored trailing star does not match elsewhere", rules: []string{"/npm-debug.log.*"}, path: "x/npm-debug.log.1", ignored: false},
		{note: "double star crosses directories", rules: []string{"docs/**/*.png"}, path: "docs/a/b/c.png", ignored: true},
		{note: "negation re-includes a file", rules: []string{"*.log", "!keep.log"}, path: "logs/keep.log", ignored: false},
		{note: "character class", rules: []string{"file[0-9].txt"}, path: "file7.txt", ignored: true},
		{note: "comments and blanks are not rules", rules: []string{"# comment", ""}, path: "comment", ignored: false},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			set := &ignoreSet{}
			for _, r := range tt.rules {
				if rule, ok := compileIgnoreRule(r); ok {
					set.rules = append(set.rules, rule)
				}
			}
			if got := (ignoreStack{set}).ignored(tt.path, tt.isDir); got != tt.ignored {
				t.Errorf("ignored(%q) = %v, want %v", tt.path, got, tt.ignored)
			}
		})
	}
}

func TestNestedGitignoreIsRelativeToItsDirectory(t *testing.T) {
	root := &ignoreSet{}
	nested := parseIgnore("web", []byte("/tmp\n"))
	st := ignoreStack{root, nested}
	if !st.ignored("web/tmp", true) {
		t.Error("web/.gitignore's /tmp should exclude web/tmp")
	}
	if st.ignored("tmp", true) {
		t.Error("web/.gitignore must not exclude the root's tmp")
	}
}
