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
// (not part of a longer identifier, not after a '.') and is followed,
// after optional spaces, by next: the offsets of the first word, then of
// the second, each in text order.
func findKeys(src []byte, words []string, next byte) []int {
	return findKeySets(src, keySet{words, next})[0]
}

// keySet is words to find and the byte that must follow one.
type keySet struct {
	words []string
	next  byte
}

// findKeySets is findKeys for several sets in one pass over src: a script
// is scanned for its dynamic imports and its pattern keys together, one
// identifier run at a time, where a bytes.Index per word went over the
// whole text a dozen times.
func findKeySets(src []byte, sets ...keySet) [][]int {
	var first [256]bool
	longest := 0
	found := make([][][]int, len(sets)) // by set, then by word
	for k, ks := range sets {
		found[k] = make([][]int, len(ks.words))
		for _, w := range ks.words {
			first[w[0]] = true
			longest = max(longest, len(w))
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		if !isWordByte(c) {
			i++
			continue
		}
		start := i
		for i < len(src) && isWordByte(src[i]) {
			i++
		}
		if !first[c] || i-start > longest || (start > 0 && src[start-1] == '.') {
			continue
		}
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		if j == len(src) {
			continue
		}
		run := src[start:i]
		for k, ks := range sets {
			if src[j] != ks.next {
				continue
			}
			for wi, w := range ks.words {
				if string(run) == w {
					found[k][wi] = append(found[k][wi], start)
				}
			}
		}
	}
	out := make([][]int, len(sets))
	for k := range found {
		for _, offsets := range found[k] {
			out[k] = append(out[k], offsets...)
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
	keys := findKeySets(x.src, keySet{dynamicImportCalls, '('}, keySet{patternKeys, ':'})
	for _, at := range keys[0] {
		call := enclosing(root, uint(at), "call_expression", 3)
		if call == nil {
			continue
		}
		if arg := firstStringArg(x.syntax, call); arg != "" {
			x.addRef("import", "module", arg, "")
		}
	}
	for _, at := range keys[1] {
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
	for _, a := range kids(args) {
		if a.Kind == "string" || a.Kind == "template_string" {
			return unquote(s.text(&a.Node))
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
