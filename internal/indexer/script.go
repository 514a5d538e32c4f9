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
	switch n.Kind() {
	case "import_statement":
		x.importStatement(n)
	case "export_statement":
		x.exportStatement(n)
	case "class_declaration", "abstract_class_declaration", "class":
		name := x.text(n.ChildByFieldName("name"))
		for _, c := range namedChildren(n) {
			if c.Kind() == "decorator" {
				decorators = append(decorators, c)
			}
		}
		kind := x.angularClass(name, decorators)
		x.addSymbol(name, kind, n, exported, "")
		x.classBody(n.ChildByFieldName("body"), name)
	case "interface_declaration":
		x.addSymbol(x.text(n.ChildByFieldName("name")), "interface", n, exported, "")
	case "type_alias_declaration":
		x.addSymbol(x.text(n.ChildByFieldName("name")), "type", n, exported, "")
	case "enum_declaration":
		x.addSymbol(x.text(n.ChildByFieldName("name")), "enum", n, exported, "")
	case "function_declaration", "generator_function_declaration", "function_signature":
		x.addSymbol(x.text(n.ChildByFieldName("name")), "function", n, exported, "")
	case "lexical_declaration", "variable_declaration":
		for _, d := range namedChildren(n) {
			if d.Kind() == "variable_declarator" {
				x.declarator(&d, exported)
			}
		}
	case "ambient_declaration":
		for _, c := range namedChildren(n) {
			x.statement(&c, exported, nil)
		}
	case "module", "internal_module":
		x.addSymbol(unquote(x.text(n.ChildByFieldName("name"))), "namespace", n, exported, "")
	case "expression_statement":
		x.commonJSExports(n)
	}
}

// commonJSExports marks names exported by `module.exports = { a, b }`,
// `module.exports = a` and `exports.a = ...`.
func (x *scriptExtractor) commonJSExports(n *sitter.Node) {
	for _, a := range namedChildren(n) {
		if a.Kind() != "assignment_expression" {
			continue
		}
		left, right := x.text(a.ChildByFieldName("left")), a.ChildByFieldName("right")
		switch {
		case left == "module.exports" && right != nil && right.Kind() == "object":
			for name, v := range objectPairs(x.syntax, right) {
				x.exportedNames[name] = true
				if v.Kind() == "identifier" {
					x.exportedNames[x.text(v)] = true
				}
			}
		case left == "module.exports" && right != nil && right.Kind() == "identifier":
			x.exportedNames[x.text(right)] = true
		case strings.HasPrefix(left, "exports.") || strings.HasPrefix(left, "module.exports."):
			name := left[strings.LastIndexByte(left, '.')+1:]
			x.exportedNames[name] = true
			if right != nil && right.Kind() == "identifier" {
				x.exportedNames[x.text(right)] = true
			}
		}
	}
}

func (x *scriptExtractor) importStatement(n *sitter.Node) {
	spec := unquote(x.text(n.ChildByFieldName("source")))
	var names []string
	for _, c := range namedChildren(n) {
		if c.Kind() != "import_clause" {
			continue
		}
		for _, part := range namedChildren(&c) {
			switch part.Kind() {
			case "identifier":
				names = append(names, x.text(&part))
			case "named_imports":
				for _, s := range namedChildren(&part) {
					if s.Kind() == "import_specifier" {
						names = append(names, x.text(s.ChildByFieldName("name")))
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
		switch c.Kind() {
		case "decorator":
			decorators = append(decorators, c)
		case "export_clause":
			for _, s := range namedChildren(&c) {
				if s.Kind() == "export_specifier" {
					x.exportedNames[x.text(s.ChildByFieldName("name"))] = true
				}
			}
		}
	}
	if d := n.ChildByFieldName("declaration"); d != nil {
		x.statement(d, true, decorators)
		return
	}
	if src := n.ChildByFieldName("source"); src != nil {
		x.addRef("import", "module", unquote(x.text(src)), "")
		return
	}
	if v := n.ChildByFieldName("value"); v != nil {
		switch v.Kind() {
		case "identifier":
			x.exportedNames[x.text(v)] = true
		case "class", "function_expression", "arrow_function", "function":
			x.statement(v, true, decorators)
		}
	}
}

func (x *scriptExtractor) declarator(d *sitter.Node, exported bool) {
	nameNode := d.ChildByFieldName("name")
	if nameNode == nil || nameNode.Kind() != "identifier" {
		return // destructuring patterns define nothing worth a header
	}
	name := x.text(nameNode)
	value := d.ChildByFieldName("value")
	kind := "const"
	if value != nil {
		switch value.Kind() {
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
		switch m.Kind() {
		case "decorator":
			pending = append(pending, m)
			continue
		case "method_definition", "method_signature", "abstract_method_signature":
			name := x.text(m.ChildByFieldName("name"))
			x.addSymbol(name, "method", &m, !strings.HasPrefix(name, "#"), class)
		case "public_field_definition", "field_definition":
			x.field(&m, class, pending)
		}
		pending = nil
	}
}

func (x *scriptExtractor) field(m *sitter.Node, class string, decorators []sitter.Node) {
	name := unquote(x.text(m.ChildByFieldName("name")))
	if name == "" {
		name = unquote(x.text(m.ChildByFieldName("property")))
	}
	for _, c := range namedChildren(m) {
		if c.Kind() == "decorator" {
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
	if v := m.ChildByFieldName("value"); v != nil && v.Kind() == "call_expression" {
		callee := x.text(v.ChildByFieldName("function"))
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
		switch c.Kind() {
		case "call_expression":
			return s.text(c.ChildByFieldName("function"))
		case "identifier":
			return s.text(&c)
		}
	}
	return ""
}

// decoratorObject returns the first object-literal argument of a decorator.
func decoratorObject(d *sitter.Node) *sitter.Node {
	for _, c := range namedChildren(d) {
		if c.Kind() != "call_expression" {
			continue
		}
		for _, a := range namedChildren(c.ChildByFieldName("arguments")) {
			if a.Kind() == "object" {
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
		switch p.Kind() {
		case "pair":
			k := unquote(s.text(p.ChildByFieldName("key")))
			pairs[k] = p.ChildByFieldName("value")
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
		switch e.Kind() {
		case "identifier":
			out = append(out, x.text(&e))
		case "call_expression":
			if f := e.ChildByFieldName("function"); f != nil && f.Kind() == "member_expression" {
				out = append(out, x.text(f.ChildByFieldName("object")))
			}
		}
	}
	return out
}
