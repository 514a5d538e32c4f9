package indexer

import (
	"path"
	"sort"
	"strings"
)

// resolver turns raw references into file-to-file edges against the
// current file set.
type resolver struct {
	files    map[string]*fileFacts
	order    []string
	cfg      projectConfig
	definers map[string][]string // top-level symbol name -> files defining it
	selector map[string][]string // element selector -> component files
	byDir    map[string][]string
	byBase   map[string][]string
	imports  map[string]map[string]bool // file -> files it imports (resolved)
	modules  map[string]string          // Go module path -> its directory
}

func newResolver(files map[string]*fileFacts, order []string, symbols []Symbol, cfg projectConfig) *resolver {
	r := &resolver{
		files: files, order: order, cfg: cfg,
		definers: map[string][]string{}, selector: map[string][]string{},
		byDir: map[string][]string{}, byBase: map[string][]string{},
		imports: map[string]map[string]bool{}, modules: map[string]string{},
	}
	for _, s := range symbols {
		switch {
		case s.Kind == "go_module":
			r.modules[s.Name] = path.Dir(s.File)
		case s.Kind == "selector":
			r.selector[s.Name] = appendUnique(r.selector[s.Name], s.File)
		case s.Container == "" && s.Kind != "route" && s.Kind != "go_module" && s.Kind != "grid_column" && !strings.HasPrefix(s.Kind, "federation"):
			r.definers[s.Name] = appendUnique(r.definers[s.Name], s.File)
		}
	}
	for _, p := range order {
		r.byDir[path.Dir(p)] = append(r.byDir[path.Dir(p)], p)
		r.byBase[path.Base(p)] = append(r.byBase[path.Base(p)], p)
	}
	return r
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

func (r *resolver) resolveAll() []Edge {
	var edges []Edge
	seen := map[Edge]bool{}
	add := func(e Edge) {
		if e.To == "" || e.To == e.From || seen[e] {
			return
		}
		seen[e] = true
		edges = append(edges, e)
	}
	// Module-like references first: symbol references are disambiguated by
	// what the referring file imports.
	for _, from := range r.order {
		for _, ref := range r.files[from].Refs {
			if ref.By == "symbol" || ref.By == "selector" {
				continue
			}
			for _, to := range r.resolve(from, ref) {
				if r.imports[from] == nil {
					r.imports[from] = map[string]bool{}
				}
				r.imports[from][to] = true
				add(Edge{From: from, To: to, Kind: ref.Kind, Symbol: ref.Symbol})
			}
		}
	}
	for _, from := range r.order {
		for _, ref := range r.files[from].Refs {
			if ref.By != "symbol" && ref.By != "selector" {
				continue
			}
			for _, to := range r.resolve(from, ref) {
				add(Edge{From: from, To: to, Kind: ref.Kind, Symbol: ref.Symbol})
			}
		}
	}
	sort.SliceStable(edges, func(i, j int) bool {
		if edges[i].From != edges[j].From {
			return edges[i].From < edges[j].From
		}
		return edges[i].To < edges[j].To
	})
	return edges
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
		if d == from || r.imports[from][d] {
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
