// Package grammar names the tree-sitter grammars mcpc parses with and says
// which file each one parses. The indexer, the codemods and the graph all
// parse the same files; one table keeps them agreeing on what a file is.
package grammar

import (
	"path"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	tshtml "github.com/tree-sitter/tree-sitter-html/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspython "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// Grammar names, as the index stores them with each file.
const (
	TypeScript = "typescript"
	TSX        = "tsx"
	JavaScript = "javascript"
	HTML       = "html"
	Go         = "go"
	Python     = "python"
	Java       = "java"
)

// Languages are created once: a Language is immutable and shared by
// parsers. Read only.
var Languages = map[string]*sitter.Language{
	TypeScript: sitter.NewLanguage(tsts.LanguageTypescript()),
	TSX:        sitter.NewLanguage(tsts.LanguageTSX()),
	JavaScript: sitter.NewLanguage(tsjs.Language()),
	HTML:       sitter.NewLanguage(tshtml.Language()),
	Go:         sitter.NewLanguage(tsgo.Language()),
	Python:     sitter.NewLanguage(tspython.Language()),
	Java:       sitter.NewLanguage(tsjava.Language()),
}

// Of maps a path to the grammar that parses it: "" for a file that has
// none (indexed for its text only, never a codemod's).
func Of(file string) string {
	switch strings.ToLower(path.Ext(file)) {
	case ".ts", ".mts", ".cts":
		return TypeScript
	case ".tsx":
		return TSX
	case ".js", ".jsx", ".mjs", ".cjs":
		return JavaScript
	case ".html", ".htm":
		return HTML
	case ".go":
		return Go
	case ".py", ".pyi":
		return Python
	case ".java":
		return Java
	}
	return ""
}
