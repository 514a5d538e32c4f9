package graph

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// Chain kinds.
const (
	ChainAgGrid     = "ag-grid"
	ChainFederation = "federation"
)

// Chain is a proof chain (seed 002): the joints from where a thing is shown
// to where it is defined, each located by file, line and symbol, and the
// edges between them with how each was found ("graph" when the edge is a
// stored fact, "lexical" when the chain builder read the source).
type Chain struct {
	Kind     string      `json:"kind"`
	Steps    []ChainStep `json:"steps"`
	Edges    []ChainEdge `json:"edges"`
	Complete bool        `json:"complete"`
	Missing  []string    `json:"missing,omitempty"` // roles not found
	Score    int         `json:"-"`
}

// ChainStep is one joint of a chain.
type ChainStep struct {
	Role   string `json:"role"`
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Symbol string `json:"symbol,omitempty"`
	Node   string `json:"node,omitempty"` // graph node id, when the joint is a node
}

// ChainEdge links two consecutive steps.
type ChainEdge struct {
	From string `json:"from"` // role
	To   string `json:"to"`
	Type string `json:"type"` // the graph edge type, or what the source text showed
	Via  string `json:"via"`  // graph | lexical
}

// Files returns the files of a chain, in step order, once each.
func (c Chain) Files() []string {
	var out []string
	for _, s := range c.Steps {
		if s.File != "" && !slices.Contains(out, s.File) {
			out = append(out, s.File)
		}
	}
	return out
}

// ChainRequest says which chains to build and what the work is about.
type ChainRequest struct {
	AgGrid     bool
	Federation bool
	// Files and Terms are the work's signals (ranked files, prompt terms):
	// chains touching them come first.
	Files []string
	Terms []string
	// Max bounds the chains returned per kind. Default 3.
	Max int
	// RequireSignal drops chains that touch no signal file or term: what a
	// new work gets is about its task, not every grid of the repository.
	RequireSignal bool
}

// ChainBuilder walks proof chains on a graph, reading source text where
// the graph holds no fact for a joint (navigation calls, lazy imports of
// remotes, which route object names which component). It is not safe for
// concurrent use: make one per walk.
type ChainBuilder struct {
	Store Store
	Root  string // workspace root, for the lexical fallbacks

	res   *pathscope.Resolver
	files map[string][]byte // what one Build read, by path
}

// read returns a workspace file for a lexical fallback, once per Build,
// through pathscope (no link followed, bounded).
func (b *ChainBuilder) read(file string) ([]byte, error) {
	if src, ok := b.files[file]; ok {
		return src, nil
	}
	if b.res == nil {
		res, err := pathscope.New(b.Root)
		if err != nil {
			return nil, err
		}
		b.res = res
	}
	src, err := b.res.ReadFile(file, maxChainFileBytes)
	if err != nil {
		return nil, err
	}
	b.files[file] = src
	return src, nil
}

// maxChainFileBytes bounds a file the chain builder reads.
const maxChainFileBytes = 1 << 20

// Build returns the requested chains, best first.
func (b *ChainBuilder) Build(ctx context.Context, req ChainRequest) ([]Chain, error) {
	if req.Max <= 0 {
		req.Max = 3
	}
	b.files = map[string][]byte{} // files may change between Builds
	defer func() { b.files = nil }()
	var out []Chain
	if req.AgGrid {
		cs, err := b.agGrid(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, rank(cs, req)...)
	}
	if req.Federation {
		cs, err := b.federation(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, rank(cs, req)...)
	}
	return out, nil
}

// rank orders chains by how many signal files and terms they touch, then
// completeness, then first file, and keeps req.Max.
func rank(cs []Chain, req ChainRequest) []Chain {
	for i := range cs {
		score := 0
		for _, s := range cs[i].Steps {
			if slices.Contains(req.Files, s.File) {
				score += 3
			}
			for _, t := range req.Terms {
				if t != "" && (strings.Contains(strings.ToLower(s.Symbol), strings.ToLower(t)) || strings.Contains(strings.ToLower(s.File), strings.ToLower(t))) {
					score++
				}
			}
		}
		if score == 0 && req.RequireSignal {
			score = -1
		} else if cs[i].Complete {
			score += 2
		}
		cs[i].Score = score
	}
	cs = slices.DeleteFunc(cs, func(c Chain) bool { return c.Score < 0 })
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Score != cs[j].Score {
			return cs[i].Score > cs[j].Score
		}
		return cs[i].Steps[0].File < cs[j].Steps[0].File
	})
	if len(cs) > req.Max {
		cs = cs[:req.Max]
	}
	return cs
}

// chainState accumulates one chain's steps.
type chainState struct {
	c    Chain
	last string
}

func newChain(kind string, first ChainStep) *chainState {
	return &chainState{c: Chain{Kind: kind, Steps: []ChainStep{first}}, last: first.Role}
}

func (s *chainState) add(step ChainStep, typ, via string) {
	s.c.Steps = append(s.c.Steps, step)
	s.c.Edges = append(s.c.Edges, ChainEdge{From: s.last, To: step.Role, Type: typ, Via: via})
	s.last = step.Role
}

func (s *chainState) done(roles []string) Chain {
	for _, r := range roles {
		found := false
		for _, st := range s.c.Steps {
			if st.Role == r {
				found = true
			}
		}
		if !found {
			s.c.Missing = append(s.c.Missing, r)
		}
	}
	s.c.Complete = len(s.c.Missing) == 0
	return s.c
}

var agGridRoles = []string{"table", "columnDef", "cellRenderer", "navTrigger", "route", "component", "service", "definition"}

// agGrid builds one chain per ag-Grid table and renderer: table (the
// <ag-grid-angular> usage) → column def → cell renderer → navigation
// trigger → route → routed component → service → definition.
func (b *ChainBuilder) agGrid(ctx context.Context) ([]Chain, error) {
	tables, err := b.Store.Nodes(ctx, LabelUsage, "ag-grid-angular", 50)
	if err != nil {
		return nil, err
	}
	var out []Chain
	for _, t := range tables {
		if t.Key != "ag-grid-angular" {
			continue
		}
		tplFile := str(t.Props["file"])
		table := ChainStep{Role: "table", File: tplFile, Line: intProp(t.Props["startLine"]), Symbol: t.Key, Node: t.ID}
		// The component owning the template: the file that USES_TEMPLATE
		// it, or the template's own file for an inline template.
		comp := tplFile
		if !strings.HasSuffix(tplFile, ".ts") {
			in, err := b.Store.Edges(ctx, FileID(tplFile), In, "USES_TEMPLATE")
			if err != nil {
				return nil, err
			}
			if len(in) == 0 {
				out = append(out, newChain(ChainAgGrid, table).done(agGridRoles))
				continue
			}
			comp = strings.TrimPrefix(in[0].From, "file:")
		}
		grids, err := b.gridFiles(ctx, comp)
		if err != nil {
			return nil, err
		}
		found := false
		for _, gf := range grids {
			cols, err := b.definedIn(ctx, gf.file, "grid_column")
			if err != nil {
				return nil, err
			}
			renderers, err := b.Store.Edges(ctx, FileID(gf.file), Out, "RENDERS")
			if err != nil {
				return nil, err
			}
			for _, r := range renderers {
				found = true
				ch := newChain(ChainAgGrid, table)
				colNames := strings.Split(str(r.Props["symbols"]), ",")
				for _, c := range cols {
					if slices.Contains(colNames, str(c.Props["name"])) {
						ch.add(symbolStep("columnDef", c), gf.via, "graph")
						break
					}
				}
				rfile := strings.TrimPrefix(r.To, "file:")
				ch.add(ChainStep{Role: "cellRenderer", File: rfile, Symbol: b.componentName(ctx, rfile), Node: r.To}, "RENDERS", "graph")
				if err := b.fromNavigation(ctx, ch, rfile); err != nil {
					return nil, err
				}
				out = append(out, ch.done(agGridRoles))
			}
		}
		if !found {
			ch := newChain(ChainAgGrid, table)
			if cols, err := b.definedIn(ctx, comp, "grid_column"); err == nil && len(cols) > 0 {
				ch.add(symbolStep("columnDef", cols[0]), "USES_TEMPLATE/DEFINES", "graph")
			}
			out = append(out, ch.done(agGridRoles))
		}
	}
	return out, nil
}

// gridSource is a file that may hold a grid's column definitions: the
// component itself, or a file it imports (columns kept in their own module).
type gridSource struct {
	file string
	via  string // how the table reaches it
}

func (b *ChainBuilder) gridFiles(ctx context.Context, comp string) ([]gridSource, error) {
	out := []gridSource{{comp, "USES_TEMPLATE/DEFINES"}}
	imps, err := b.Store.Edges(ctx, FileID(comp), Out, "IMPORTS")
	if err != nil {
		return nil, err
	}
	for _, e := range imps {
		rs, err := b.Store.Edges(ctx, e.To, Out, "RENDERS")
		if err != nil {
			return nil, err
		}
		if len(rs) > 0 {
			out = append(out, gridSource{strings.TrimPrefix(e.To, "file:"), "IMPORTS/DEFINES"})
		}
	}
	return out, nil
}

var (
	navCall  = regexp.MustCompile(`(?:navigate|navigateByUrl)\(\s*\[?\s*['"\x60]([^'"\x60]*)['"\x60]\s*(,)?`)
	linkAttr = regexp.MustCompile(`\[?routerLink\]?\s*=\s*["']\s*(\[)?\s*'?(/?[A-Za-z0-9_\-/:.]*)'?\s*(,)?`)
)

// fromNavigation continues a chain from a renderer: the navigation call in
// its source (lexical: the graph has no navigation facts), the route that
// path matches, the routed component, its service and the definitions the
// service uses.
func (b *ChainBuilder) fromNavigation(ctx context.Context, ch *chainState, file string) error {
	navFile, target, hasArgs, line, call := b.navigation(file)
	via := "navigates"
	if navFile == "" {
		// The renderer may delegate: one hop into the files it imports.
		imps, err := b.Store.Edges(ctx, FileID(file), Out, "IMPORTS")
		if err != nil {
			return err
		}
		for _, e := range imps {
			if navFile, target, hasArgs, line, call = b.navigation(strings.TrimPrefix(e.To, "file:")); navFile != "" {
				via = "IMPORTS/navigates"
				break
			}
		}
	}
	if navFile == "" {
		return nil
	}
	ch.add(ChainStep{Role: "navTrigger", File: navFile, Line: line, Symbol: call}, via, "lexical")
	route, err := b.matchRoute(ctx, target, hasArgs)
	if err != nil || route == nil {
		return err
	}
	ch.add(symbolStep("route", *route), "matches", "lexical")
	rfile := str(route.Props["file"])
	comp, err := b.routedFile(ctx, rfile, *route)
	if err != nil || comp == "" {
		return err
	}
	ch.add(ChainStep{Role: "component", File: comp, Symbol: b.componentName(ctx, comp), Node: FileID(comp)}, "ROUTES_TO", "graph")
	svc, err := b.importedWith(ctx, comp, "injectable")
	if err != nil || svc == nil {
		return err
	}
	ch.add(symbolStep("service", *svc), "IMPORTS", "graph")
	def, err := b.importedWith(ctx, str(svc.Props["file"]), "interface", "type", "class", "enum")
	if err != nil || def == nil {
		return err
	}
	ch.add(symbolStep("definition", *def), "IMPORTS", "graph")
	return nil
}

// navigation finds the first navigation call or routerLink in a file.
func (b *ChainBuilder) navigation(file string) (found, target string, hasArgs bool, line int, call string) {
	src, err := b.read(file)
	if err != nil {
		return "", "", false, 0, "" // a vanished or oversized file ends the chain; Missing says where
	}
	m := navCall.FindSubmatchIndex(src)
	if m != nil {
		target, hasArgs = string(src[m[2]:m[3]]), m[4] >= 0
	} else if m = linkAttr.FindSubmatchIndex(src); m != nil {
		target, hasArgs = string(src[m[4]:m[5]]), m[6] >= 0
	} else {
		return "", "", false, 0, ""
	}
	return file, target, hasArgs, lineAt(src, m[0]), strings.TrimSpace(string(src[m[0]:m[1]]))
}

// matchRoute finds the route symbol a navigation target names: '/orders'
// with further arguments prefers '/orders/:id' over '/orders'.
func (b *ChainBuilder) matchRoute(ctx context.Context, target string, hasArgs bool) (*Node, error) {
	routes, err := b.Store.Nodes(ctx, LabelSymbol, SymbolKey("route", "/"), 0)
	if err != nil {
		return nil, err
	}
	target = "/" + strings.Trim(target, "/")
	var best *Node
	bestScore := 0
	for i := range routes {
		name := str(routes[i].Props["name"])
		score := 0
		switch {
		case name == target && !hasArgs:
			score = 3
		case hasArgs && strings.HasPrefix(name, target+"/:"):
			score = 3
		case name == target:
			score = 2
		case strings.HasSuffix(name, target) && target != "/":
			score = 1 // a child route: '/orders' under a parent path
		}
		if score > bestScore {
			best, bestScore = &routes[i], score
		}
	}
	return best, nil
}

var componentKey = regexp.MustCompile(`(?:component|loadComponent)\s*:\s*([A-Za-z_$][\w$]*)`)

// routedFile returns the component file a route object routes to: the
// component it names (lexical, from the route's lines) matched to the
// ROUTES_TO edges of its file (graph).
func (b *ChainBuilder) routedFile(ctx context.Context, file string, route Node) (string, error) {
	edges, err := b.Store.Edges(ctx, FileID(file), Out, "ROUTES_TO")
	if err != nil || len(edges) == 0 {
		return "", err
	}
	src, err := b.read(file)
	if err != nil {
		return "", nil
	}
	text := lines(src, intProp(route.Props["startLine"]), intProp(route.Props["endLine"]))
	m := componentKey.FindStringSubmatch(text)
	if m == nil {
		return "", nil
	}
	for _, e := range edges {
		if slices.Contains(strings.Split(str(e.Props["symbols"]), ","), m[1]) {
			return strings.TrimPrefix(e.To, "file:"), nil
		}
	}
	return "", nil
}

// importedWith returns the first symbol of one of kinds defined in a file
// that file imports, preferring imports in edge order.
func (b *ChainBuilder) importedWith(ctx context.Context, file string, kinds ...string) (*Node, error) {
	imps, err := b.Store.Edges(ctx, FileID(file), Out, "IMPORTS")
	if err != nil {
		return nil, err
	}
	for _, e := range imps {
		for _, k := range kinds {
			syms, err := b.definedIn(ctx, strings.TrimPrefix(e.To, "file:"), k)
			if err != nil {
				return nil, err
			}
			if len(syms) > 0 {
				return &syms[0], nil
			}
		}
	}
	return nil, nil
}

// definedIn returns the symbols of a kind a file defines, in line order.
func (b *ChainBuilder) definedIn(ctx context.Context, file, kind string) ([]Node, error) {
	edges, err := b.Store.Edges(ctx, FileID(file), Out, EdgeDefines)
	if err != nil {
		return nil, err
	}
	var out []Node
	for _, e := range edges {
		if !strings.HasPrefix(e.To, "symbol:"+file+"#"+kind+":") {
			continue
		}
		n, ok, err := b.Store.Node(ctx, e.To)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return intProp(out[i].Props["startLine"]) < intProp(out[j].Props["startLine"]) })
	return out, nil
}

// componentName is the component class a file defines, if any.
func (b *ChainBuilder) componentName(ctx context.Context, file string) string {
	syms, err := b.definedIn(ctx, file, "component")
	if err != nil || len(syms) == 0 {
		return ""
	}
	return str(syms[0].Props["name"])
}

var federationRoles = []string{"hostRoute", "federationMapping", "remoteExpose", "remoteModule", "destinationComponent"}

var (
	lazyImport     = regexp.MustCompile(`import\(\s*['"]([^'"./][^'"]*)['"]\s*\)`)
	loadRemoteCall = regexp.MustCompile(`loadRemoteModule\(\s*(\{[^}]*\}|['"][^'"]+['"]\s*,\s*['"][^'"]+['"])`)
	remoteNameKey  = regexp.MustCompile(`remoteName\s*:\s*['"]([^'"]+)['"]`)
	exposedKey     = regexp.MustCompile(`exposedModule\s*:\s*['"]([^'"]+)['"]`)
	quoted         = regexp.MustCompile(`['"]([^'"]+)['"]`)
)

// remoteLoad finds how a route's text loads a remote module: a static
// import('billing/Module'), or @angular-architects' loadRemoteModule in its
// object ({remoteName: 'billing', exposedModule: './Module'}) or
// positional ('billing', './Module') form. It returns the remote and the
// exposed key without "./".
func remoteLoad(text string) (remote, expose, how string, ok bool) {
	if m := lazyImport.FindStringSubmatch(text); m != nil {
		remote, expose, _ = strings.Cut(m[1], "/")
		return remote, expose, m[0], true
	}
	m := loadRemoteCall.FindStringSubmatch(text)
	if m == nil {
		return "", "", "", false
	}
	if strings.HasPrefix(m[1], "{") {
		r, e := remoteNameKey.FindStringSubmatch(m[1]), exposedKey.FindStringSubmatch(m[1])
		if r == nil || e == nil {
			return "", "", "", false
		}
		remote, expose = r[1], e[1]
	} else {
		q := quoted.FindAllStringSubmatch(m[1], 2)
		remote, expose = q[0][1], q[1][1]
	}
	return remote, strings.TrimPrefix(expose, "./"), "loadRemoteModule(" + remote + ", ./" + strings.TrimPrefix(expose, "./") + ")", true
}

// federation builds one chain per host route that lazily loads a module
// of a federated remote: host route → federation mapping (the remotes entry
// of the host's config) → remote expose → remote module → destination
// component.
func (b *ChainBuilder) federation(ctx context.Context) ([]Chain, error) {
	routes, err := b.Store.Nodes(ctx, LabelSymbol, SymbolKey("route", "/"), 0)
	if err != nil {
		return nil, err
	}
	var out []Chain
	for _, r := range routes {
		file := str(r.Props["file"])
		src, _ := b.read(file) // unreadable: no lazy import found
		remote, expose, how, ok := remoteLoad(lines(src, intProp(r.Props["startLine"]), intProp(r.Props["endLine"])))
		if !ok {
			continue
		}
		mappings, err := b.Store.Nodes(ctx, LabelSymbol, SymbolKey("federation_remote", remote), 0)
		if err != nil {
			return nil, err
		}
		var mapping *Node
		for i := range mappings {
			if str(mappings[i].Props["name"]) == remote {
				mapping = &mappings[i]
				break
			}
		}
		if mapping == nil {
			continue // a lazy import of a package, not of a remote
		}
		ch := newChain(ChainFederation, symbolStep("hostRoute", r))
		ch.c.Steps[0].Symbol = str(r.Props["name"]) + " → " + how
		ch.add(symbolStep("federationMapping", *mapping), "loads remote", "lexical")
		exp, err := b.expose(ctx, remote, "./"+expose)
		if err != nil {
			return nil, err
		}
		if exp != nil {
			ch.add(symbolStep("remoteExpose", *exp), "exposed by", "graph")
			if err := b.fromExpose(ctx, ch, *exp); err != nil {
				return nil, err
			}
		}
		out = append(out, ch.done(federationRoles))
	}
	return out, nil
}

var federationName = regexp.MustCompile(`\bname\s*:\s*['"]([^'"]+)['"]`)

// expose finds the exposes entry of a remote: the federation_expose symbol
// with that key in the config whose name is the remote (lexical), or the
// only one with that key.
func (b *ChainBuilder) expose(ctx context.Context, remote, key string) (*Node, error) {
	cands, err := b.Store.Nodes(ctx, LabelSymbol, SymbolKey("federation_expose", key), 0)
	if err != nil {
		return nil, err
	}
	var exact []Node
	for _, c := range cands {
		if str(c.Props["name"]) == key {
			exact = append(exact, c)
		}
	}
	for i, c := range exact {
		src, err := b.read(str(c.Props["file"]))
		if err != nil {
			continue
		}
		if m := federationName.FindSubmatch(src); m != nil && string(m[1]) == remote {
			return &exact[i], nil
		}
	}
	if len(exact) == 1 {
		return &exact[0], nil
	}
	return nil, nil
}

// fromExpose follows the EXPOSES edge of the remote's config to the module
// and the module's route (or declaration) to its destination component.
func (b *ChainBuilder) fromExpose(ctx context.Context, ch *chainState, exp Node) error {
	cfg := str(exp.Props["file"])
	edges, err := b.Store.Edges(ctx, FileID(cfg), Out, "EXPOSES")
	if err != nil {
		return err
	}
	var module string
	for _, e := range edges {
		if slices.Contains(strings.Split(str(e.Props["symbols"]), ","), str(exp.Props["name"])) {
			module = strings.TrimPrefix(e.To, "file:")
		}
	}
	if module == "" {
		return nil
	}
	ch.add(ChainStep{Role: "remoteModule", File: module, Symbol: b.firstOf(ctx, module, "ngmodule", "component"), Node: FileID(module)}, "EXPOSES", "graph")
	for _, typ := range []string{"ROUTES_TO", "DECLARES"} {
		dest, err := b.Store.Edges(ctx, FileID(module), Out, typ)
		if err != nil {
			return err
		}
		if len(dest) > 0 {
			f := strings.TrimPrefix(dest[0].To, "file:")
			ch.add(ChainStep{Role: "destinationComponent", File: f, Symbol: b.componentName(ctx, f), Node: dest[0].To}, typ, "graph")
			return nil
		}
	}
	return nil
}

func (b *ChainBuilder) firstOf(ctx context.Context, file string, kinds ...string) string {
	for _, k := range kinds {
		if syms, err := b.definedIn(ctx, file, k); err == nil && len(syms) > 0 {
			return str(syms[0].Props["name"])
		}
	}
	return ""
}

func symbolStep(role string, n Node) ChainStep {
	return ChainStep{Role: role, File: str(n.Props["file"]), Line: intProp(n.Props["startLine"]), Symbol: str(n.Props["name"]), Node: n.ID}
}

func intProp(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	case int64:
		return int(x)
	}
	return 0
}

func lineAt(src []byte, off int) int { return strings.Count(string(src[:off]), "\n") + 1 }

// lines returns lines start..end (1-based, inclusive) of src.
func lines(src []byte, start, end int) string {
	if start <= 0 {
		return ""
	}
	if end < start {
		end = start
	}
	from := 0
	for line := 1; line < start; line++ {
		i := bytes.IndexByte(src[from:], '\n')
		if i < 0 {
			return ""
		}
		from += i + 1
	}
	to := from
	for line := start; line <= end && to < len(src); line++ {
		i := bytes.IndexByte(src[to:], '\n')
		if i < 0 {
			to = len(src)
			break
		}
		to += i + 1
	}
	return string(src[from:to])
}
