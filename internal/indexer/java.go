package indexer

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// javaExtractor reads Java: types (with nesting as container), methods,
// constructors, static final constants and imports.
type javaExtractor struct{ syntax }

var javaTypeKinds = map[string]string{
	"class_declaration":           "class",
	"interface_declaration":       "interface",
	"enum_declaration":            "enum",
	"record_declaration":          "record",
	"annotation_type_declaration": "annotation",
}

func (x *javaExtractor) run(root *sitter.Node) {
	for _, n := range namedChildren(root) {
		switch kindOf(&n) {
		case "import_declaration":
			var target string
			wildcard := false
			for _, c := range namedChildren(&n) {
				switch kindOf(&c) {
				case "scoped_identifier", "identifier":
					target = x.text(&c)
				case "asterisk":
					wildcard = true
				}
			}
			if wildcard {
				target += ".*"
			}
			x.addRef("import", "javaclass", target, "")
		default:
			x.declaration(&n, "")
		}
	}
}

func (x *javaExtractor) declaration(n *sitter.Node, container string) {
	kind, ok := javaTypeKinds[kindOf(n)]
	if !ok {
		return
	}
	name := x.text(field(n, "name"))
	x.addSymbol(name, kind, n, x.public(n), container)
	for _, m := range namedChildren(field(n, "body")) {
		switch kindOf(&m) {
		case "method_declaration", "constructor_declaration":
			x.addSymbol(x.text(field(&m, "name")), "method", &m, x.public(&m), name)
		case "field_declaration", "constant_declaration":
			mods := x.modifiers(&m)
			if kindOf(&m) == "constant_declaration" || (strings.Contains(mods, "static") && strings.Contains(mods, "final")) {
				for _, d := range namedChildren(&m) {
					if kindOf(&d) == "variable_declarator" {
						x.addSymbol(x.text(field(&d, "name")), "const", &d, strings.Contains(mods, "public"), name)
					}
				}
			}
		case "enum_body_declarations":
			for _, e := range namedChildren(&m) {
				if kindOf(&e) == "method_declaration" {
					x.addSymbol(x.text(field(&e, "name")), "method", &e, x.public(&e), name)
				}
			}
		default:
			x.declaration(&m, name)
		}
	}
}

func (x *javaExtractor) modifiers(n *sitter.Node) string {
	for _, c := range namedChildren(n) {
		if kindOf(&c) == "modifiers" {
			return x.text(&c)
		}
	}
	return ""
}

func (x *javaExtractor) public(n *sitter.Node) bool {
	return strings.Contains(x.modifiers(n), "public")
}
