package indexer

import (
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/grammar"
)

// angularClass reads Angular class decorators and returns the symbol kind
// the class gets: "component", "directive", "pipe", "ngmodule",
// "injectable" or plain "class".
func (x *scriptExtractor) angularClass(class string, decorators []sitter.Node) string {
	kind := "class"
	for _, d := range decorators {
		name := decoratorName(x.syntax, &d)
		obj := decoratorObject(&d)
		switch name {
		case "Component", "Directive":
			kind = strings.ToLower(name)
			if obj != nil {
				x.componentMetadata(class, obj)
			}
		case "Pipe":
			kind = "pipe"
			if obj != nil {
				if v := objectPairs(x.syntax, obj)["name"]; v != nil {
					x.addSymbol(unquote(x.text(v)), "pipe_name", &d, true, class)
				}
			}
		case "NgModule":
			kind = "ngmodule"
			if obj != nil {
				x.moduleMetadata(obj)
			}
		case "Injectable":
			kind = "injectable"
		}
	}
	return kind
}

func (x *scriptExtractor) componentMetadata(class string, obj *sitter.Node) {
	pairs := objectPairs(x.syntax, obj)
	if v := pairs["selector"]; v != nil {
		// "adp-grid, [adpGrid]" declares several selectors.
		for _, sel := range strings.Split(unquote(x.text(v)), ",") {
			if sel = strings.TrimSpace(sel); sel != "" {
				x.addSymbol(sel, "selector", v, true, class)
			}
		}
	}
	if v := pairs["templateUrl"]; v != nil {
		x.addRef("template", "path", unquote(x.text(v)), class)
	}
	if v := pairs["styleUrl"]; v != nil {
		x.addRef("style", "path", unquote(x.text(v)), class)
	}
	if v := pairs["styleUrls"]; v != nil {
		for _, s := range kids(v) {
			x.addRef("style", "path", unquote(x.text(&s.Node)), class)
		}
	}
	for _, id := range x.identifiers(pairs["imports"]) {
		x.addRef("reference", "symbol", id, id)
	}
	if v := pairs["template"]; v != nil && (kindOf(v) == "template_string" || kindOf(v) == "string") {
		x.inlineTemplate(v)
	}
}

// inlineTemplate parses a component's inline template with the HTML grammar
// so its element usages count like those of a templateUrl file.
func (x *scriptExtractor) inlineTemplate(v *sitter.Node) {
	start, end := v.StartByte()+1, v.EndByte()-1
	if end <= start {
		return
	}
	tpl := x.src[start:end]
	tree := x.parsers.parse(grammar.HTML, tpl)
	if tree == nil {
		return
	}
	defer tree.Close()
	te := &templateExtractor{syntax: syntax{src: tpl, file: x.file}}
	te.run(tree.RootNode(), startLine(v)-1)
	if tree.RootNode().HasError() && x.file.ParseError == "" {
		msg, _ := describeError(tree.RootNode())
		x.file.ParseError = "inline template: " + msg
	}
}

// moduleMetadata turns NgModule metadata into edges: declarations are the
// module's own components, imports and exports the modules it depends on.
func (x *scriptExtractor) moduleMetadata(obj *sitter.Node) {
	pairs := objectPairs(x.syntax, obj)
	for _, id := range x.identifiers(pairs["declarations"]) {
		x.addRef("declaration", "symbol", id, id)
	}
	for _, key := range []string{"imports", "exports", "providers", "bootstrap"} {
		for _, id := range x.identifiers(pairs[key]) {
			x.addRef("reference", "symbol", id, id)
		}
	}
}
