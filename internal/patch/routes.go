package patch

import (
	"context"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// routeKeys mark an object literal as an Angular route definition when it
// also has a path key.
var routeKeys = map[string]bool{
	"component": true, "loadComponent": true, "loadChildren": true, "children": true,
	"redirectTo": true, "pathMatch": true, "canActivate": true, "canActivateChild": true,
	"canMatch": true, "canDeactivate": true, "canLoad": true, "resolve": true, "data": true,
	"title": true, "outlet": true, "providers": true, "runGuardsAndResolvers": true, "matcher": true,
}

// updateRoutePathLiteral changes route path literals, params {from, to}:
// in every object literal with a path key and another Angular route key
// (component, loadChildren, children, redirectTo, ...), a path string equal
// to from, and a redirectTo string equal to from or /from (kept absolute),
// get to between their original quotes. Other strings, template literals
// and computed values are left alone.
func updateRoutePathLiteral(ctx context.Context, in Input) ([]splice, error) {
	from, _ := in.Params["from"].(string)
	to, _ := in.Params["to"].(string)
	if from == to {
		return nil, errorf(KindNoChange, "from and to are both %q; nothing changes", from)
	}
	tree, src, err := parseScript(ctx, "update_route_path_literal", in)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	var sp []splice
	err = walk(ctx, tree.RootNode(), func(n *sitter.Node) bool {
		if n.Kind() != "object" {
			return true
		}
		pairs := map[string]*sitter.Node{}
		for _, p := range namedChildren(n) {
			if p.Kind() != "pair" {
				continue
			}
			if key := pairKey(&p, src); key != "" {
				pairs[key] = p.ChildByFieldName("value")
			}
		}
		if pairs["path"] == nil || !hasRouteKey(pairs) {
			return true
		}
		if v := pairs["path"]; v.Kind() == "string" && stringValue(v, src) == from {
			sp = append(sp, splice{v.StartByte() + 1, v.EndByte() - 1, to})
		}
		if v := pairs["redirectTo"]; v != nil && v.Kind() == "string" {
			switch stringValue(v, src) {
			case from:
				sp = append(sp, splice{v.StartByte() + 1, v.EndByte() - 1, to})
			case "/" + from:
				sp = append(sp, splice{v.StartByte() + 2, v.EndByte() - 1, to})
			}
		}
		return true // children: [...] holds more routes
	})
	if err != nil {
		return nil, err
	}
	if len(sp) == 0 {
		return nil, errorf(KindNoMatch, "no route path or redirectTo %q in a route definition", from)
	}
	return sp, nil
}

// pairKey is an object pair's key when it is a plain name or a string.
func pairKey(p *sitter.Node, src []byte) string {
	k := p.ChildByFieldName("key")
	if k == nil {
		return ""
	}
	switch k.Kind() {
	case "property_identifier":
		return text(k, src)
	case "string":
		return stringValue(k, src)
	}
	return ""
}

func hasRouteKey(pairs map[string]*sitter.Node) bool {
	for k := range pairs {
		if routeKeys[k] {
			return true
		}
	}
	return false
}
