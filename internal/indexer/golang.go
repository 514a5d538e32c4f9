package indexer

import (
	"bufio"
	"bytes"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// goExtractor reads Go: functions, methods (with their receiver type as
// container), types, exported constants and variables, and imports.
type goExtractor struct{ syntax }

func (x *goExtractor) run(root *sitter.Node) {
	for _, n := range namedChildren(root) {
		switch kindOf(&n) {
		case "import_declaration":
			x.imports(&n)
		case "function_declaration":
			name := x.text(field(&n, "name"))
			x.addSymbol(name, "function", &n, goExported(name), "")
		case "method_declaration":
			name := x.text(field(&n, "name"))
			x.addSymbol(name, "method", &n, goExported(name), x.receiver(field(&n, "receiver")))
		case "type_declaration":
			for _, s := range namedChildren(&n) {
				if kindOf(&s) != "type_spec" && kindOf(&s) != "type_alias" {
					continue
				}
				name := x.text(field(&s, "name"))
				kind := "type"
				if t := field(&s, "type"); t != nil {
					switch kindOf(t) {
					case "struct_type":
						kind = "struct"
					case "interface_type":
						kind = "interface"
					}
				}
				x.addSymbol(name, kind, &s, goExported(name), "")
			}
		case "const_declaration", "var_declaration":
			x.values(&n)
		}
	}
}

func (x *goExtractor) imports(n *sitter.Node) {
	for _, c := range namedChildren(n) {
		switch kindOf(&c) {
		case "import_spec":
			x.addRef("import", "gopkg", unquote(x.text(field(&c, "path"))), "")
		case "import_spec_list":
			x.imports(&c)
		}
	}
}

// values records exported package-level constants and variables.
func (x *goExtractor) values(n *sitter.Node) {
	kind := "const"
	if kindOf(n) == "var_declaration" {
		kind = "var"
	}
	var visit func(n *sitter.Node)
	visit = func(n *sitter.Node) {
		for _, s := range namedChildren(n) {
			switch kindOf(&s) {
			case "const_spec", "var_spec":
				for _, id := range namedChildren(&s) {
					if kindOf(&id) == "identifier" && goExported(x.text(&id)) {
						x.addSymbol(x.text(&id), kind, &s, true, "")
					}
				}
			case "var_spec_list":
				visit(&s)
			}
		}
	}
	visit(n)
}

func (x *goExtractor) receiver(params *sitter.Node) string {
	for _, p := range namedChildren(params) {
		t := field(&p, "type")
		for t != nil {
			switch kindOf(t) {
			case "pointer_type":
				t = t.NamedChild(0)
				continue
			case "generic_type":
				t = field(t, "type")
				continue
			}
			return x.text(t)
		}
	}
	return ""
}

func goExported(name string) bool { return name != "" && isUpper(name[0]) }

// goModule records a go.mod's module path as a "go_module" symbol, so Go
// imports resolve in monorepos where the module is not at the root.
func goModule(f *fileFacts, src []byte) {
	sc := bufio.NewScanner(bytes.NewReader(src))
	for line := 1; sc.Scan(); line++ {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			name := strings.Trim(strings.TrimSpace(rest), `"`)
			f.Symbols = append(f.Symbols, Symbol{Name: name, Kind: "go_module", File: f.Path, StartLine: line, EndLine: line, Exported: true})
			return
		}
	}
}
