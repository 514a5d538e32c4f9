package indexer

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// pythonExtractor reads Python: classes and their methods, functions,
// module-level UPPER_CASE constants and imports.
type pythonExtractor struct{ syntax }

func (x *pythonExtractor) run(root *sitter.Node) {
	for _, n := range namedChildren(root) {
		x.statement(&n, "")
	}
}

func (x *pythonExtractor) statement(n *sitter.Node, class string) {
	switch n.Kind() {
	case "decorated_definition":
		if d := n.ChildByFieldName("definition"); d != nil {
			x.statement(d, class)
		}
	case "function_definition":
		name := x.text(n.ChildByFieldName("name"))
		kind := "function"
		if class != "" {
			kind = "method"
		}
		x.addSymbol(name, kind, n, !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__"), class)
	case "class_definition":
		name := x.text(n.ChildByFieldName("name"))
		x.addSymbol(name, "class", n, !strings.HasPrefix(name, "_"), class)
		for _, m := range namedChildren(n.ChildByFieldName("body")) {
			x.statement(&m, name)
		}
	case "expression_statement":
		if class != "" {
			return
		}
		for _, a := range namedChildren(n) {
			if a.Kind() != "assignment" {
				continue
			}
			left := a.ChildByFieldName("left")
			if left != nil && left.Kind() == "identifier" {
				if name := x.text(left); name == strings.ToUpper(name) && len(name) > 1 {
					x.addSymbol(name, "const", &a, !strings.HasPrefix(name, "_"), "")
				}
			}
		}
	case "import_statement":
		for _, c := range namedChildren(n) {
			switch c.Kind() {
			case "dotted_name":
				x.addRef("import", "pymodule", x.text(&c), "")
			case "aliased_import":
				x.addRef("import", "pymodule", x.text(c.ChildByFieldName("name")), "")
			}
		}
	case "import_from_statement":
		module := x.text(n.ChildByFieldName("module_name"))
		var names []string
		for _, c := range namedChildren(n) {
			if c.Kind() == "dotted_name" && x.text(&c) != module {
				names = append(names, x.text(&c))
			}
		}
		x.addRef("import", "pymodule", module, strings.Join(names, ","))
		// `from . import views` imports modules, not names.
		if strings.Trim(module, ".") == "" {
			for _, name := range names {
				x.addRef("import", "pymodule", module+name, name)
			}
		}
	}
}
