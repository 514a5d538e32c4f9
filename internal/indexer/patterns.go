package indexer

import (
	"bytes"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Facts that can sit anywhere in a script (a route table inside a function,
// column definitions in a class field, federation config in a webpack
// export) are found by scanning the text for their keys and climbing from
// the key's syntax node, instead of walking every node of every file.

var (
	dynamicImportCalls = []string{"import", "require"}
	// Keys whose object literal may be a route, a column definition or a
	// federation config.
	patternKeys = []string{"loadChildren", "loadComponent", "path", "cellRenderer", "cellEditor",
		"headerName", "valueGetter", "field", "colId", "exposes", "remotes"}
)

// findKeys returns the offsets of each word in words that stands alone
// (not part of a longer identifier) and is followed, after optional spaces,
// by next. bytes.Index over a few literals is much faster than a regexp
// with word boundaries over every file.
func findKeys(src []byte, words []string, next byte) []int {
	var out []int
	for _, w := range words {
		for off := 0; ; {
			i := bytes.Index(src[off:], []byte(w))
			if i < 0 {
				break
			}
			i += off
			off = i + len(w)
			if i > 0 && (isWordByte(src[i-1]) || src[i-1] == '.') {
				continue
			}
			j := off
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if j < len(src) && src[j] == next {
				out = append(out, i)
			}
		}
	}
	return out
}

// gridKeys mark an object literal as an ag-Grid column definition when they
// appear beside `field` or `colId`.
var gridKeys = []string{"headerName", "cellRenderer", "cellEditor", "valueGetter", "valueFormatter",
	"sortable", "filter", "resizable", "pinned", "flex", "minWidth", "maxWidth", "editable",
	"cellClass", "headerComponent", "checkboxSelection", "cellRendererParams", "width"}

var componentKeys = []string{"cellRenderer", "cellEditor", "headerComponent", "tooltipComponent",
	"cellRendererFramework", "cellEditorFramework", "floatingFilterComponent"}

func (x *scriptExtractor) scanPatterns(root *sitter.Node) {
	seen := map[uint]bool{} // objects already analysed, by start byte
	for _, at := range findKeys(x.src, dynamicImportCalls, '(') {
		call := enclosing(root, uint(at), "call_expression", 3)
		if call == nil {
			continue
		}
		if arg := firstStringArg(x.syntax, call); arg != "" {
			x.addRef("import", "module", arg, "")
		}
	}
	for _, at := range findKeys(x.src, patternKeys, ':') {
		obj := enclosing(root, uint(at), "object", 3)
		if obj == nil || seen[obj.StartByte()] {
			continue
		}
		seen[obj.StartByte()] = true
		x.patternObject(obj)
	}
}

// enclosing returns the nearest node of kind around byte offset pos,
// climbing at most up parents.
func enclosing(root *sitter.Node, pos uint, kind string, up int) *sitter.Node {
	n := root.NamedDescendantForByteRange(pos, pos+1)
	for i := 0; n != nil && i <= up; i++ {
		if kindOf(n) == kind {
			return n
		}
		n = n.Parent()
	}
	return nil
}

func firstStringArg(s syntax, call *sitter.Node) string {
	args := field(call, "arguments")
	for _, a := range namedChildren(args) {
		if kindOf(&a) == "string" || kindOf(&a) == "template_string" {
			return unquote(s.text(&a))
		}
		return ""
	}
	return ""
}

func (x *scriptExtractor) patternObject(obj *sitter.Node) {
	pairs := objectPairs(x.syntax, obj)
	x.routeObject(obj, pairs)
	x.gridColumn(obj, pairs)
	x.federation(pairs)
}

// routeObject records an Angular (or similar) route: its path as a "route"
// symbol and edges to the component or lazily loaded module.
func (x *scriptExtractor) routeObject(obj *sitter.Node, pairs map[string]*sitter.Node) {
	pathNode := pairs["path"]
	comp, lazy, lazyComp := pairs["component"], pairs["loadChildren"], pairs["loadComponent"]
	if pathNode == nil || (comp == nil && lazy == nil && lazyComp == nil && pairs["children"] == nil && pairs["redirectTo"] == nil) {
		return
	}
	if kindOf(pathNode) == "string" {
		x.addSymbol("/"+unquote(x.text(pathNode)), "route", obj, true, "")
	}
	if comp != nil && kindOf(comp) == "identifier" {
		x.addRef("route", "symbol", x.text(comp), x.text(comp))
	}
	for _, v := range []*sitter.Node{lazy, lazyComp} {
		if v == nil {
			continue
		}
		if locs := findKeys(x.src[v.StartByte():v.EndByte()], dynamicImportCalls, '('); len(locs) > 0 {
			if call := enclosing(v, v.StartByte()+uint(locs[0]), "call_expression", 3); call != nil {
				x.addRef("route", "module", firstStringArg(x.syntax, call), "")
			}
		} else if kindOf(v) == "string" { // legacy "./path#Module" form
			spec, _, _ := bytes.Cut([]byte(unquote(x.text(v))), []byte("#"))
			x.addRef("route", "module", string(spec), "")
		}
	}
}

// gridColumn records an ag-Grid column definition and its cell components.
func (x *scriptExtractor) gridColumn(obj *sitter.Node, pairs map[string]*sitter.Node) {
	key := pairs["field"]
	if key == nil {
		key = pairs["colId"]
	}
	if key == nil {
		return
	}
	isGrid := false
	for _, k := range gridKeys {
		if pairs[k] != nil {
			isGrid = true
			break
		}
	}
	if !isGrid {
		return
	}
	name := unquote(x.text(key))
	x.addSymbol(name, "grid_column", obj, true, "")
	for _, k := range componentKeys {
		v := pairs[k]
		if v == nil {
			continue
		}
		switch kindOf(v) {
		case "identifier", "string":
			target := unquote(x.text(v))
			x.addSymbol(target, "cell_renderer", v, false, name)
			x.addRef("renderer", "symbol", target, name)
		}
	}
}

// federation records Module Federation remotes and exposed modules.
func (x *scriptExtractor) federation(pairs map[string]*sitter.Node) {
	if v := pairs["exposes"]; v != nil && kindOf(v) == "object" {
		for key, target := range objectPairs(x.syntax, v) {
			if kindOf(target) == "object" { // { import: './x' } form
				target = objectPairs(x.syntax, target)["import"]
			}
			if target == nil {
				continue
			}
			x.addSymbol(key, "federation_expose", target, true, "")
			x.addRef("federation", "path", unquote(x.text(target)), key)
		}
	}
	if v := pairs["remotes"]; v != nil && kindOf(v) == "object" {
		for key, target := range objectPairs(x.syntax, v) {
			x.addSymbol(key, "federation_remote", target, true, unquote(x.text(target)))
		}
	}
}
