package controller

import "slices"

// lookupSymbol answers definitions from the index, only within scope.
func (c *Controller) lookupSymbol(t *turn) {
	name, _ := t.args["symbol"].(string)
	scope := t.dec.Obligations.SearchScope
	out := []Symbol{}
	for _, s := range c.index.Symbols(name) {
		if slices.Contains(scope, s.File) {
			out = append(out, s)
		}
	}
	if pf, ok := t.in.Paths["targetFile"]; ok {
		out = slices.DeleteFunc(out, func(s Symbol) bool { return s.File != pf.Canonical })
	}
	t.result["symbol"] = name
	t.result["definitions"] = out
}

// traceSymbolGraph returns a file's or symbol's neighbours within scope.
func (c *Controller) traceSymbolGraph(t *turn) {
	scope := t.dec.Obligations.SearchScope
	var roots []string
	if pf, ok := t.in.Paths["targetFile"]; ok {
		roots = append(roots, pf.Canonical)
	}
	for _, key := range []string{"symbol", "query"} {
		if name, ok := t.args[key].(string); ok {
			for _, s := range c.index.Symbols(name) {
				if slices.Contains(scope, s.File) && !slices.Contains(roots, s.File) {
					roots = append(roots, s.File)
				}
			}
		}
	}
	edges := []Edge{}
	seen := map[Edge]bool{}
	for _, r := range roots {
		for _, e := range c.index.Neighbors(r) {
			if !seen[e] && slices.Contains(scope, e.From) && slices.Contains(scope, e.To) {
				seen[e] = true
				edges = append(edges, e)
			}
		}
	}
	t.result["roots"] = orEmpty(roots)
	t.result["edges"] = edges
}
