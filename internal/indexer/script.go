package indexer

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// scriptExtractor reads TypeScript, TSX and JavaScript: top-level
// definitions, imports, Angular decorators, and (found by scanning the text
// for their keys, then climbing the tree) dynamic imports, routes, ag-Grid
// column definitions and Module Federation config.
type scriptExtractor struct {
	syntax
	parsers *parserSet
	// exportedNames collects `export { a, b }` and `export default a`.
	exportedNames map[string]bool
}

func (x *scriptExtractor) run(root *sitter.Node) {
	x.exportedNames = map[string]bool{}
	for _, c := range namedChildren(root) {
		x.statement(&c, false, nil)
	}
	for i := range x.file.Symbols {
		if x.exportedNames[x.file.Symbols[i].Name] {
			x.file.Symbols[i].Exported = true
		}
	}
	x.scanPatterns(root)
}

func (x *scriptExtractor) statement(n *sitter.Node, exported bool, decorators []sitter.Node) {
	switch kindOf(n) {
	case "import_statement":
		x.importStatement(n)
	case "export_statement":
		x.exportStatement(n)
	case "class_declaration", "abstract_class_declaration", "class":
		name := x.text(field(n, "name"))
		for _, c := range namedChildren(n) {
			if kindOf(&c) == "decorator" {
				decorators = append(decorators, c)
			}
		}
		kind := x.angularClass(name, decorators)
		x.addSymbol(name, kind, n, exported, "")
		x.classBody(field(n, "body"), name)
	case "interface_declaration":
		x.addSymbol(x.text(field(n, "name")), "interface", n, exported, "")
	case "type_alias_declaration":
		x.addSymbol(x.text(field(n, "name")), "type", n, exported, "")
	case "enum_declaration":
		x.addSymbol(x.text(field(n, "name")), "enum", n, exported, "")
	case "function_declaration", "generator_function_declaration", "function_signature":
		x.addSymbol(x.text(field(n, "name")), "function", n, exported, "")
	case "lexical_declaration", "variable_declaration":
		for _, d := range namedChildren(n) {
			if kindOf(&d) == "variable_declarator" {
				x.declarator(&d, exported)
			}
		}
	case "ambient_declaration":
		for _, c := range namedChildren(n) {
			x.statement(&c, exported, nil)
		}
	case "module", "internal_module":
		x.addSymbol(unquote(x.text(field(n, "name"))), "namespace", n, exported, "")
	case "expression_statement":
		x.commonJSExports(n)
	}
}

// commonJSExports marks names exported by `module.exports = { a, b }`,
// `module.exports = a` and `exports.a = ...`.
func (x *scriptExtractor) commonJSExports(n *sitter.Node) {
	for _, a := range namedChildren(n) {
		if kindOf(&a) != "assignment_expression" {
			continue
		}
		left, right := x.text(field(&a, "left")), field(&a, "right")
		switch {
		case left == "module.exports" && right != nil && kindOf(right) == "object":
			for name, v := range objectPairs(x.syntax, right) {
				x.exportedNames[name] = true
				if kindOf(v) == "identifier" {
					x.exportedNames[x.text(v)] = true
				}
			}
		case left == "module.exports" && right != nil && kindOf(right) == "identifier":
			x.exportedNames[x.text(right)] = true
		case strings.HasPrefix(left, "exports.") || strings.HasPrefix(left, "module.exports."):
			name := left[strings.LastIndexByte(left, '.')+1:]
			x.exportedNames[name] = true
			if right != nil && kindOf(right) == "identifier" {
				x.exportedNames[x.text(right)] = true
			}
		}
	}
}

func (x *scriptExtractor) importStatement(n *sitter.Node) {
	spec := unquote(x.text(field(n, "source")))
	var names []string
	for _, c := range namedChildren(n) {
		if kindOf(&c) != "import_clause" {
			continue
		}
		for _, part := range namedChildren(&c) {
			switch kindOf(&part) {
			case "identifier":
				names = append(names, x.text(&part))
			case "named_imports":
				for _, s := range namedChildren(&part) {
					if kindOf(&s) == "import_specifier" {
						names = append(names, x.text(field(&s, "name")))
					}
				}
			}
		}
	}
	x.addRef("import", "module", spec, strings.Join(names, ","))
}

func (x *scriptExtractor) exportStatement(n *sitter.Node) {
	var decorators []sitter.Node
	for _, c := range namedChildren(n) {
		switch kindOf(&c) {
		case "decorator":
			decorators = append(decorators, c)
		case "export_clause":
			for _, s := range namedChildren(&c) {
				if kindOf(&s) == "export_specifier" {
					x.exportedNames[x.text(field(&s, "name"))] = true
				}
			}
		}
	}
	if d := field(n, "declaration"); d != nil {
		x.statement(d, true, decorators)
		return
	}
	if src := field(n, "source"); src != nil {
		x.addRef("import", "module", unquote(x.text(src)), "")
		return
	}
	if v := field(n, "value"); v != nil {
		switch kindOf(v) {
		case "identifier":
			x.exportedNames[x.text(v)] = true
		case "class", "function_expression", "arrow_function", "function":
			x.statement(v, true, decorators)
		}
	}
}

func (x *scriptExtractor) declarator(d *sitter.Node, exported bool) {
	nameNode := field(d, "name")
	if nameNode == nil || kindOf(nameNode) != "identifier" {
		return // destructuring patterns define nothing worth a header
	}
	name := x.text(nameNode)
	value := field(d, "value")
	kind := "const"
	if value != nil {
		switch kindOf(value) {
		case "arrow_function", "function_expression", "function", "generator_function":
			kind = "function"
		case "class":
			kind = "class"
		case "call_expression":
			// Wrapped components and hooks: observer(...), React.memo(...),
			// forwardRef(...), styled.div`...` keep their definition role.
			if isUpper(name[0]) || strings.HasPrefix(name, "use") {
				kind = "function"
			}
		}
	}
	if kind == "const" && !exported {
		return
	}
	x.addSymbol(name, kind, d, exported, "")
}

// classBody records methods and Angular inputs/outputs. Plain fields are
// left out: they are not headers anyone plans against.
func (x *scriptExtractor) classBody(body *sitter.Node, class string) {
	if body == nil {
		return
	}
	var pending []sitter.Node // decorators precede their member in JS grammars
	for _, m := range namedChildren(body) {
		switch kindOf(&m) {
		case "decorator":
			pending = append(pending, m)
			continue
		case "method_definition", "method_signature", "abstract_method_signature":
			name := x.text(field(&m, "name"))
			x.addSymbol(name, "method", &m, !strings.HasPrefix(name, "#"), class)
		case "public_field_definition", "field_definition":
			x.field(&m, class, pending)
		}
		pending = nil
	}
}

func (x *scriptExtractor) field(m *sitter.Node, class string, decorators []sitter.Node) {
	name := unquote(x.text(field(m, "name")))
	if name == "" {
		name = unquote(x.text(field(m, "property")))
	}
	for _, c := range namedChildren(m) {
		if kindOf(&c) == "decorator" {
			decorators = append(decorators, c)
		}
	}
	for _, d := range decorators {
		switch decoratorName(x.syntax, &d) {
		case "Input":
			x.addSymbol(name, "input", m, true, class)
			return
		case "Output":
			x.addSymbol(name, "output", m, true, class)
			return
		}
	}
	// Signal-based inputs: `name = input<T>()`, `changed = output<T>()`.
	if v := field(m, "value"); v != nil && kindOf(v) == "call_expression" {
		callee := x.text(field(v, "function"))
		switch strings.TrimSuffix(callee, ".required") {
		case "input", "model":
			x.addSymbol(name, "input", m, true, class)
		case "output":
			x.addSymbol(name, "output", m, true, class)
		}
	}
}

// decoratorName returns "Component" for @Component({...}) and @Component.
func decoratorName(s syntax, d *sitter.Node) string {
	for _, c := range namedChildren(d) {
		switch kindOf(&c) {
		case "call_expression":
			return s.text(field(&c, "function"))
		case "identifier":
			return s.text(&c)
		}
	}
	return ""
}

// decoratorObject returns the first object-literal argument of a decorator.
func decoratorObject(d *sitter.Node) *sitter.Node {
	for _, c := range namedChildren(d) {
		if kindOf(&c) != "call_expression" {
			continue
		}
		for _, a := range namedChildren(field(&c, "arguments")) {
			if kindOf(&a) == "object" {
				return &a
			}
		}
	}
	return nil
}

// objectPairs maps an object literal's keys to their value nodes.
func objectPairs(s syntax, obj *sitter.Node) map[string]*sitter.Node {
	pairs := map[string]*sitter.Node{}
	for _, p := range namedChildren(obj) {
		switch kindOf(&p) {
		case "pair":
			k := unquote(s.text(field(&p, "key")))
			pairs[k] = field(&p, "value")
		case "shorthand_property_identifier":
			pairs[s.text(&p)] = &p
		}
	}
	return pairs
}

// identifiers lists the identifiers of an array literal ([A, B, C]),
// including the receiver of calls such as RouterModule.forChild(routes).
func (x *scriptExtractor) identifiers(v *sitter.Node) []string {
	if v == nil {
		return nil
	}
	var out []string
	for _, e := range namedChildren(v) {
		switch kindOf(&e) {
		case "identifier":
			out = append(out, x.text(&e))
		case "call_expression":
			if f := field(&e, "function"); f != nil && kindOf(f) == "member_expression" {
				out = append(out, x.text(field(f, "object")))
			}
		}
	}
	return out
}
