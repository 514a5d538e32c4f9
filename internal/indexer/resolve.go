package indexer

import (
	"path"
	"sort"
	"strings"
)

// resolver turns raw references into file-to-file edges against the
// current file set. It lives as long as the file set does: after files only
// changed content, update re-resolves the changed files and the files whose
// symbol or selector references may now point elsewhere, instead of the
// whole tree.
type resolver struct {
	files    map[string]*fileFacts
	order    []string
	cfg      projectConfig
	definers map[string][]string // top-level symbol name -> files defining it, in path order
	selector map[string][]string // element selector -> component files, in path order
	byDir    map[string][]string
	byBase   map[string][]string
	imports  map[string]bool   // files the file being resolved imports
	modules  map[string]string // Go module path -> its directory
	// users are the files holding a symbol (symUsers) or selector
	// (selUsers) reference to a name: the files to re-resolve when that
	// name's definers change.
	symUsers map[string]map[string]bool
	selUsers map[string]map[string]bool
}

// contribution says which resolver table a symbol adds its name to:
// "module", "selector", "definer" or "".
func contribution(s Symbol) string {
	switch {
	case s.Kind == "go_module":
		return "module"
	case s.Kind == "selector":
		return "selector"
	case s.Container == "" && s.Kind != "route" && s.Kind != "grid_column" && !strings.HasPrefix(s.Kind, "federation"):
		return "definer"
	}
	return ""
}

func newResolver(files map[string]*fileFacts, order []string, symbols []Symbol, cfg projectConfig) *resolver {
	r := &resolver{
		files: files, order: order, cfg: cfg,
		definers: map[string][]string{}, selector: map[string][]string{},
		byDir: map[string][]string{}, byBase: map[string][]string{},
		modules:  map[string]string{},
		symUsers: map[string]map[string]bool{}, selUsers: map[string]map[string]bool{},
	}
	for _, s := range symbols {
		r.addSymbol(s)
	}
	for _, p := range order {
		r.byDir[path.Dir(p)] = append(r.byDir[path.Dir(p)], p)
		r.byBase[path.Base(p)] = append(r.byBase[path.Base(p)], p)
		r.addUsers(p, files[p].Refs)
	}
	return r
}

// addSymbol enters a definition in the tables it contributes to; symbols
// come in path order, so that each name's files are.
func (r *resolver) addSymbol(s Symbol) {
	switch contribution(s) {
	case "module":
		r.modules[s.Name] = path.Dir(s.File)
	case "selector":
		r.selector[s.Name] = appendUnique(r.selector[s.Name], s.File)
	case "definer":
		r.definers[s.Name] = appendUnique(r.definers[s.Name], s.File)
	}
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// usersOf is the map of who names a reference's target: symbol and
// selector references have one each; other kinds have none.
func (r *resolver) usersOf(ref rawRef) map[string]map[string]bool {
	switch ref.By {
	case "symbol":
		return r.symUsers
	case "selector":
		return r.selUsers
	}
	return nil
}

func (r *resolver) addUsers(file string, refs []rawRef) {
	for _, ref := range refs {
		users := r.usersOf(ref)
		if users == nil {
			continue
		}
		if users[ref.Target] == nil {
			users[ref.Target] = map[string]bool{}
		}
		users[ref.Target][file] = true
	}
}

// dropUsersOf takes file out of every name's users: a file is among the
// users of exactly the names its references named, so this is what its
// references would drop, without them (they may be only in the database).
func (r *resolver) dropUsersOf(file string) {
	for _, users := range []map[string]map[string]bool{r.symUsers, r.selUsers} {
		for name, set := range users {
			if set[file] {
				delete(set, file)
				if len(set) == 0 {
					delete(users, name)
				}
			}
		}
	}
}

// resolveAll resolves every file's references: edges grouped by file in
// path order, each file's sorted by target.
func (r *resolver) resolveAll() map[string][]Edge {
	out := make(map[string][]Edge, len(r.order))
	for _, from := range r.order {
		if edges := r.resolveFile(from); len(edges) > 0 {
			out[from] = edges
		}
	}
	return out
}

// resolveFile resolves one file's references.
func (r *resolver) resolveFile(from string) []Edge { return r.resolveRefs(from, r.files[from].Refs) }

// resolveRefs resolves the references of file from. Module-like references
// come first: symbol references are disambiguated by what the file imports.
func (r *resolver) resolveRefs(from string, refs []rawRef) []Edge {
	var edges []Edge
	seen := map[Edge]bool{}
	add := func(e Edge) {
		if e.To == "" || e.To == e.From || seen[e] {
			return
		}
		seen[e] = true
		edges = append(edges, e)
	}
	r.imports = map[string]bool{}
	for _, ref := range refs {
		if ref.By == "symbol" || ref.By == "selector" {
			continue
		}
		for _, to := range r.resolve(from, ref) {
			r.imports[to] = true
			add(Edge{From: from, To: to, Kind: ref.Kind, Symbol: ref.Symbol})
		}
	}
	for _, ref := range refs {
		if ref.By != "symbol" && ref.By != "selector" {
			continue
		}
		for _, to := range r.resolve(from, ref) {
			add(Edge{From: from, To: to, Kind: ref.Kind, Symbol: ref.Symbol})
		}
	}
	sort.SliceStable(edges, func(i, j int) bool { return edges[i].To < edges[j].To })
	return edges
}

// update brings the tables up to date after the files of d changed (order
// is the new file list) and returns the files whose edges must be resolved
// again. ok is false when the change reaches tables that are not updated in
// place (a go.mod's module path): the caller then rebuilds the resolver.
func (r *resolver) update(d *delta, order []string) (reresolve map[string]bool, ok bool) {
	type change struct {
		path     string
		old, now *fileFacts
	}
	var changes []change
	for p, old := range d.changed {
		changes = append(changes, change{p, old, r.files[p]})
	}
	for p, old := range d.removed {
		changes = append(changes, change{p, old, nil})
	}
	for p := range d.added {
		changes = append(changes, change{p, nil, r.files[p]})
	}
	reresolve = map[string]bool{}
	for _, c := range changes {
		var was, now fileFacts
		if c.old != nil {
			was = *c.old
		}
		if c.now != nil {
			now = *c.now
			reresolve[c.path] = true
		}
		oldNames, newNames := contributions(was.Symbols), contributions(now.Symbols)
		if len(oldNames["module"]) > 0 || len(newNames["module"]) > 0 {
			return nil, false
		}
		for _, kind := range []string{"definer", "selector"} {
			table, users := r.definers, r.symUsers
			if kind == "selector" {
				table, users = r.selector, r.selUsers
			}
			for name := range oldNames[kind] {
				if !newNames[kind][name] {
					table[name] = removeString(table[name], c.path)
					if len(table[name]) == 0 {
						delete(table, name)
					}
					for u := range users[name] {
						reresolve[u] = true
					}
				}
			}
			for name := range newNames[kind] {
				if !oldNames[kind][name] {
					table[name] = insertSorted(table[name], c.path)
					for u := range users[name] {
						reresolve[u] = true
					}
				}
			}
		}
		r.dropUsersOf(c.path) // was's references may have been dropped
		r.addUsers(c.path, now.Refs)
	}
	if len(d.added)+len(d.removed) == 0 {
		return reresolve, true
	}
	r.order = order
	keys := map[string]bool{}
	for p := range d.removed {
		dir, base := path.Dir(p), path.Base(p)
		r.byDir[dir] = removeString(r.byDir[dir], p)
		r.byBase[base] = removeString(r.byBase[base], p)
		fileKeys(p, keys)
	}
	for p := range d.added {
		dir, base := path.Dir(p), path.Base(p)
		r.byDir[dir] = insertSorted(r.byDir[dir], p)
		r.byBase[base] = insertSorted(r.byBase[base], p)
		fileKeys(p, keys)
	}
	// A file that appeared or vanished changes what module-like references
	// resolve to only if it is one of the paths they probe, and every such
	// path ends in the name the reference ends in: re-resolve the files
	// holding one that does (or whose name cannot be told).
	for _, from := range order {
		if reresolve[from] {
			continue
		}
		for _, ref := range r.files[from].Refs {
			if ref.By == "symbol" || ref.By == "selector" {
				continue
			}
			names, ok := r.refKeys(from, ref)
			if !ok || keys[names[0]] || keys[names[1]] {
				reresolve[from] = true
				break
			}
		}
	}
	return reresolve, true
}

// fileKeys adds the names under which references can reach file: its base
// name with and without its extensions, and its folder's name (an index
// file, a package).
func fileKeys(file string, keys map[string]bool) {
	base := path.Base(file)
	keys[base] = true
	for stem := base; strings.Contains(stem, "."); {
		stem = strings.TrimSuffix(stem, path.Ext(stem))
		keys[stem] = true
	}
	keys[path.Base(path.Dir(file))] = true
}

// refKeys is the name a module-like reference ends in, with and without
// its extension; ok is false when that cannot be told from the reference
// alone (an alias to a fixed path, a bare relative package).
func (r *resolver) refKeys(from string, ref rawRef) (names [2]string, ok bool) {
	var last string
	switch ref.By {
	case "module", "path":
		t := ref.Target
		switch {
		case strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || t == "." || t == "..":
			t = path.Join(path.Dir(from), t)
		case ref.By == "module" && !strings.HasPrefix(t, "/"):
			for _, a := range r.cfg.aliases {
				if _, matched := a.match(t); matched {
					for _, target := range a.targets {
						if !strings.HasSuffix(target, "*") {
							return names, false
						}
					}
				}
			}
		}
		last = path.Base(t)
	case "pymodule":
		rest := strings.TrimLeft(ref.Target, ".")
		if rest == "" {
			return names, false
		}
		last = rest[strings.LastIndexByte(rest, '.')+1:]
	case "gopkg":
		last = path.Base(ref.Target)
	case "javaclass":
		t := strings.TrimSuffix(ref.Target, ".*")
		last = t[strings.LastIndexByte(t, '.')+1:]
	default:
		return names, false
	}
	if last == "" || last == "." || last == ".." || last == "/" {
		return names, false
	}
	return [2]string{last, strings.TrimSuffix(last, path.Ext(last))}, true
}

func contributions(symbols []Symbol) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, s := range symbols {
		kind := contribution(s)
		if kind == "" {
			continue
		}
		if out[kind] == nil {
			out[kind] = map[string]bool{}
		}
		out[kind][s.Name] = true
	}
	return out
}

func removeString(list []string, s string) []string {
	out := make([]string, 0, len(list))
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// insertSorted adds s to a path-ordered list, as a full build would have
// placed it.
func insertSorted(list []string, s string) []string {
	i := sort.SearchStrings(list, s)
	if i < len(list) && list[i] == s {
		return list
	}
	out := make([]string, 0, len(list)+1)
	out = append(out, list[:i]...)
	out = append(out, s)
	return append(out, list[i:]...)
}

func (r *resolver) resolve(from string, ref rawRef) []string {
	switch ref.By {
	case "module":
		return one(r.module(from, ref.Target))
	case "path":
		return one(r.relPath(from, ref.Target))
	case "symbol":
		return r.symbol(from, ref.Target)
	case "selector":
		return r.selector[ref.Target]
	case "gopkg":
		return r.goPackage(ref.Target)
	case "pymodule":
		return one(r.pyModule(from, ref.Target))
	case "javaclass":
		return r.javaClass(ref.Target)
	}
	return nil
}

func one(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

var scriptExtensions = []string{".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".json"}

// module resolves a TS/JS import specifier: relative paths, tsconfig
// `paths` aliases and baseUrl, with TypeScript's extension and index-file
// probing. Bare package names resolve to nothing: they are not in the tree.
func (r *resolver) module(from, spec string) string {
	var bases []string
	switch {
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") || spec == "." || spec == "..":
		bases = []string{path.Join(path.Dir(from), spec)}
	case strings.HasPrefix(spec, "/"):
		bases = []string{strings.TrimPrefix(spec, "/")}
	default:
		for _, a := range r.cfg.aliases {
			if rest, ok := a.match(spec); ok {
				for _, t := range a.targets {
					bases = append(bases, path.Clean(strings.Replace(t, "*", rest, 1)))
				}
			}
		}
		if r.cfg.baseURL != "" {
			bases = append(bases, path.Join(r.cfg.baseURL, spec))
		}
	}
	for _, b := range bases {
		if f := r.probe(b); f != "" {
			return f
		}
	}
	return ""
}

func (r *resolver) probe(base string) string {
	if r.files[base] != nil {
		return base
	}
	// ESM TypeScript imports name the emitted .js file.
	if ext := path.Ext(base); ext == ".js" || ext == ".mjs" || ext == ".jsx" {
		stem := strings.TrimSuffix(base, ext)
		for _, e := range []string{".ts", ".tsx", ".mts"} {
			if r.files[stem+e] != nil {
				return stem + e
			}
		}
	}
	for _, e := range scriptExtensions {
		if r.files[base+e] != nil {
			return base + e
		}
	}
	for _, e := range scriptExtensions {
		if r.files[base+"/index"+e] != nil {
			return base + "/index" + e
		}
	}
	return ""
}

// relPath resolves a path written relative to the referring file (Angular
// templateUrl, federation exposes), falling back to the workspace root.
func (r *resolver) relPath(from, target string) string {
	for _, p := range []string{path.Join(path.Dir(from), target), path.Clean(strings.TrimPrefix(target, "/"))} {
		if r.files[p] != nil {
			return p
		}
		if f := r.probe(p); f != "" {
			return f
		}
	}
	return ""
}

// symbol resolves a name to the files defining it: those the referring file
// imports if any do, else every definer when the name is unambiguous enough.
func (r *resolver) symbol(from, name string) []string {
	defs := r.definers[name]
	var imported []string
	for _, d := range defs {
		if d == from || r.imports[d] {
			imported = append(imported, d)
		}
	}
	if len(imported) > 0 {
		return imported
	}
	if len(defs) <= 2 {
		return defs
	}
	return nil
}

func (r *resolver) goPackage(importPath string) []string {
	var dir string
	for mod, modDir := range r.modules {
		if importPath == mod || strings.HasPrefix(importPath, mod+"/") {
			dir = path.Join(modDir, strings.TrimPrefix(importPath, mod))
			break
		}
	}
	if dir == "" {
		return nil
	}
	var out []string
	for _, f := range r.byDir[dir] {
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") {
			out = append(out, f)
		}
	}
	return out
}

func (r *resolver) pyModule(from, module string) string {
	var bases []string
	if strings.HasPrefix(module, ".") {
		dots := len(module) - len(strings.TrimLeft(module, "."))
		dir := path.Dir(from)
		for i := 1; i < dots; i++ {
			dir = path.Dir(dir)
		}
		rest := strings.ReplaceAll(strings.TrimLeft(module, "."), ".", "/")
		bases = []string{path.Join(dir, rest)}
	} else {
		rel := strings.ReplaceAll(module, ".", "/")
		bases = []string{rel, path.Join("src", rel)}
	}
	for _, b := range bases {
		for _, cand := range []string{b + ".py", b + "/__init__.py", b + ".pyi"} {
			if r.files[cand] != nil {
				return cand
			}
		}
	}
	return ""
}

func (r *resolver) javaClass(fqcn string) []string {
	if strings.HasSuffix(fqcn, ".*") {
		suffix := strings.ReplaceAll(strings.TrimSuffix(fqcn, ".*"), ".", "/")
		var out []string
		for dir, files := range r.byDir {
			if dir == suffix || strings.HasSuffix(dir, "/"+suffix) {
				for _, f := range files {
					if strings.HasSuffix(f, ".java") {
						out = append(out, f)
					}
				}
			}
		}
		sort.Strings(out)
		return out
	}
	parts := strings.Split(fqcn, ".")
	suffix := strings.Join(parts, "/") + ".java"
	for _, f := range r.byBase[parts[len(parts)-1]+".java"] {
		if f == suffix || strings.HasSuffix(f, "/"+suffix) {
			return []string{f}
		}
	}
	return nil
}
