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
	for _, c := range kids(root) {
		x.statement(&c.Node, false, nil)
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
		for _, c := range kids(n) {
			if c.Kind == "decorator" {
				decorators = append(decorators, c.Node)
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
		for _, d := range kids(n) {
			if d.Kind == "variable_declarator" {
				x.declarator(&d.Node, exported)
			}
		}
	case "ambient_declaration":
		for _, c := range kids(n) {
			x.statement(&c.Node, exported, nil)
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
	for _, a := range kids(n) {
		if a.Kind != "assignment_expression" {
			continue
		}
		left, right := x.text(field(&a.Node, "left")), field(&a.Node, "right")
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
	for _, c := range kids(n) {
		if c.Kind != "import_clause" {
			continue
		}
		for _, part := range kids(&c.Node) {
			switch part.Kind {
			case "identifier":
				names = append(names, x.text(&part.Node))
			case "named_imports":
				for _, s := range kids(&part.Node) {
					if s.Kind == "import_specifier" {
						names = append(names, x.text(field(&s.Node, "name")))
					}
				}
			}
		}
	}
	x.addRef("import", "module", spec, strings.Join(names, ","))
}

func (x *scriptExtractor) exportStatement(n *sitter.Node) {
	var decorators []sitter.Node
	for _, c := range kids(n) {
		switch c.Kind {
		case "decorator":
			decorators = append(decorators, c.Node)
		case "export_clause":
			for _, s := range kids(&c.Node) {
				if s.Kind == "export_specifier" {
					x.exportedNames[x.text(field(&s.Node, "name"))] = true
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
	for _, m := range kids(body) {
		switch m.Kind {
		case "decorator":
			pending = append(pending, m.Node)
			continue
		case "method_definition", "method_signature", "abstract_method_signature":
			name := x.text(field(&m.Node, "name"))
			x.addSymbol(name, "method", &m.Node, !strings.HasPrefix(name, "#"), class)
		case "public_field_definition", "field_definition":
			x.field(&m.Node, class, pending)
		}
		pending = nil
	}
}

func (x *scriptExtractor) field(m *sitter.Node, class string, decorators []sitter.Node) {
	name := unquote(x.text(field(m, "name")))
	if name == "" {
		name = unquote(x.text(field(m, "property")))
	}
	for _, c := range kids(m) {
		if c.Kind == "decorator" {
			decorators = append(decorators, c.Node)
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
	for _, c := range kids(d) {
		switch c.Kind {
		case "call_expression":
			return s.text(field(&c.Node, "function"))
		case "identifier":
			return s.text(&c.Node)
		}
	}
	return ""
}

// decoratorObject returns the first object-literal argument of a decorator.
func decoratorObject(d *sitter.Node) *sitter.Node {
	for _, c := range kids(d) {
		if c.Kind != "call_expression" {
			continue
		}
		for _, a := range kids(field(&c.Node, "arguments")) {
			if a.Kind == "object" {
				return &a.Node
			}
		}
	}
	return nil
}

// objectPairs maps an object literal's keys to their value nodes.
func objectPairs(s syntax, obj *sitter.Node) map[string]*sitter.Node {
	pairs := map[string]*sitter.Node{}
	for _, p := range kids(obj) {
		switch p.Kind {
		case "pair":
			k := unquote(s.text(field(&p.Node, "key")))
			pairs[k] = field(&p.Node, "value")
		case "shorthand_property_identifier":
			pairs[s.text(&p.Node)] = &p.Node
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
	for _, e := range kids(v) {
		switch e.Kind {
		case "identifier":
			out = append(out, x.text(&e.Node))
		case "call_expression":
			if f := field(&e.Node, "function"); f != nil && kindOf(f) == "member_expression" {
				out = append(out, x.text(field(f, "object")))
			}
		}
	}
	return out
}
