package patch

import (
	"context"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// updateImportSpecifier edits the imports of one module in a TypeScript or
// JavaScript file, params:
//   - module: the specifier of the imports to edit, as written between the
//     quotes ('../shared/ui/alert/adp-alert.component');
//   - from, to: rename the imported name from (a named or default import, or
//     a re-exported name) to to; an alias (`from as x`) is kept;
//   - toModule: the new module specifier; the quotes are kept.
//
// It edits import statements, export ... from statements and dynamic
// import('module') calls. Uses of the imported name elsewhere in the file
// are not renamed: chain rename_identifier_in_file for those (a custom
// codemod can declare the pair).
func updateImportSpecifier(ctx context.Context, in Input) ([]splice, error) {
	module, _ := in.Params["module"].(string)
	from, _ := in.Params["from"].(string)
	to, _ := in.Params["to"].(string)
	toModule, hasModule := in.Params["toModule"].(string)
	if (from == to || from == "") && (!hasModule || toModule == module) {
		return nil, errorf(KindNoChange, "the params change nothing (from equals to, toModule equals module)")
	}
	tree, src, err := parseScript(ctx, "update_import_specifier", in)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	var sp []splice
	found, named := false, false
	err = walk(ctx, tree.RootNode(), func(n *sitter.Node) bool {
		var source *sitter.Node
		switch n.Kind() {
		case "import_statement", "export_statement":
			source = n.ChildByFieldName("source")
		case "call_expression":
			if fn := n.ChildByFieldName("function"); fn != nil && fn.Kind() == "import" {
				if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() == 1 {
					source = args.NamedChild(0)
				}
			}
		default:
			return true
		}
		if source == nil || source.Kind() != "string" || stringValue(source, src) != module {
			return true
		}
		found = true
		if hasModule && toModule != module {
			sp = append(sp, splice{source.StartByte() + 1, source.EndByte() - 1, toModule})
		}
		if from != "" && from != to && n.Kind() != "call_expression" {
			for _, id := range importedNames(ctx, n, src, from) {
				named = true
				sp = append(sp, splice{id.StartByte(), id.EndByte(), to})
			}
		}
		return n.Kind() == "call_expression" // an import() may hold another
	})
	if err != nil {
		return nil, err
	}
	switch {
	case !found:
		return nil, errorf(KindNoMatch, "no import of %q in the file", module)
	case from != "" && from != to && !named:
		return nil, errorf(KindNoMatch, "the imports of %q do not name %q", module, from)
	}
	return sp, nil
}

// stringValue is a string literal's text between its quotes.
func stringValue(n *sitter.Node, src []byte) string {
	t := text(n, src)
	if len(t) < 2 {
		return ""
	}
	return t[1 : len(t)-1]
}

// importedNames are the identifiers of stmt that name the imported (or
// re-exported) binding from: a specifier's name (never its alias) or a
// default import.
func importedNames(ctx context.Context, stmt *sitter.Node, src []byte, from string) []*sitter.Node {
	var out []*sitter.Node
	_ = walk(ctx, stmt, func(n *sitter.Node) bool {
		switch n.Kind() {
		case "import_specifier", "export_specifier":
			if name := n.ChildByFieldName("name"); name != nil && name.Kind() == "identifier" && text(name, src) == from {
				out = append(out, name)
			}
			return false
		case "import_clause":
			for _, c := range namedChildren(n) {
				if c.Kind() == "identifier" && text(&c, src) == from {
					out = append(out, &c)
				}
			}
		case "string", "namespace_import":
			return false
		}
		return true
	})
	return out
}
