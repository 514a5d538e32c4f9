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
	switch kindOf(n) {
	case "decorated_definition":
		if d := field(n, "definition"); d != nil {
			x.statement(d, class)
		}
	case "function_definition":
		name := x.text(field(n, "name"))
		kind := "function"
		if class != "" {
			kind = "method"
		}
		x.addSymbol(name, kind, n, !strings.HasPrefix(name, "_") || strings.HasPrefix(name, "__"), class)
	case "class_definition":
		name := x.text(field(n, "name"))
		x.addSymbol(name, "class", n, !strings.HasPrefix(name, "_"), class)
		for _, m := range namedChildren(field(n, "body")) {
			x.statement(&m, name)
		}
	case "expression_statement":
		if class != "" {
			return
		}
		for _, a := range namedChildren(n) {
			if kindOf(&a) != "assignment" {
				continue
			}
			left := field(&a, "left")
			if left != nil && kindOf(left) == "identifier" {
				if name := x.text(left); name == strings.ToUpper(name) && len(name) > 1 {
					x.addSymbol(name, "const", &a, !strings.HasPrefix(name, "_"), "")
				}
			}
		}
	case "import_statement":
		for _, c := range namedChildren(n) {
			switch kindOf(&c) {
			case "dotted_name":
				x.addRef("import", "pymodule", x.text(&c), "")
			case "aliased_import":
				x.addRef("import", "pymodule", x.text(field(&c, "name")), "")
			}
		}
	case "import_from_statement":
		module := x.text(field(n, "module_name"))
		var names []string
		for _, c := range namedChildren(n) {
			if kindOf(&c) == "dotted_name" && x.text(&c) != module {
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
