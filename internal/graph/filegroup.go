package graph

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/mcpc/mcpc/internal/indexer"
)

// factRuns hands out each file's symbols, edges and usages as runs of the
// index's own lists, which the indexer keeps in path order; regrouping
// them by file in maps had copied every fact of the tree for each build.
type factRuns struct {
	syms   []indexer.Symbol
	edges  []indexer.Edge
	usages []indexer.Usage
}

func newFactRuns(ix CodeIndex, usages []indexer.Usage) *factRuns {
	r := &factRuns{syms: ix.AllSymbols(), edges: ix.Edges(), usages: usages}
	// Another CodeIndex may list them in any order: then a sorted copy.
	r.syms = byFile(r.syms, func(s indexer.Symbol) string { return s.File })
	r.edges = byFile(r.edges, func(e indexer.Edge) string { return e.From })
	r.usages = byFile(r.usages, func(u indexer.Usage) string { return u.File })
	return r
}

func byFile[T any](list []T, file func(T) string) []T {
	cmp := func(a, b T) int { return strings.Compare(file(a), file(b)) }
	if slices.IsSortedFunc(list, cmp) {
		return list
	}
	list = slices.Clone(list)
	slices.SortStableFunc(list, cmp)
	return list
}

// of returns the facts of file; files must be asked for in path order.
func (r *factRuns) of(file string) ([]indexer.Symbol, []indexer.Edge, []indexer.Usage) {
	syms, restSyms := indexer.FileRun(r.syms, file, func(s *indexer.Symbol) string { return s.File })
	edges, restEdges := indexer.FileRun(r.edges, file, func(e *indexer.Edge) string { return e.From })
	usages, restUsages := indexer.FileRun(r.usages, file, func(u *indexer.Usage) string { return u.File })
	r.syms, r.edges, r.usages = restSyms, restEdges, restUsages
	return syms, edges, usages
}

// fileGroup is a file's node with its anchor, symbol headers, file edges
// and usages. src is its source, which is also its node's id.
func (b *builder) fileGroup(src, file, lang, anc string, syms []indexer.Symbol, edges []indexer.Edge, usages []indexer.Usage) *Group {
	g := &Group{Source: src, Nodes: make([]Node, 0, 1+len(syms)+len(usages)), Edges: make([]Edge, 0, 1+len(syms)+len(edges)+3*len(usages))}
	ancID := b.u.anchorID(anc)
	g.Nodes = append(g.Nodes, Node{ID: src, Label: LabelFile, Key: file, Source: src, Props: map[string]any{"lang": lang, "anchor": anc}})
	g.Edges = append(g.Edges, Edge{From: src, Type: EdgeInAnchor, To: ancID, Source: src})
	b.symbols(g, src, syms)
	b.fileEdges(g, src, edges)
	b.usages(g, src, anc, ancID, usages)
	return g
}

func (b *builder) symbols(g *Group, fileID string, syms []indexer.Symbol) {
	clear(b.seen)
	for _, s := range syms {
		if s.Container != "" && !highSignalKinds[s.Kind] {
			continue
		}
		id := symbolID(s)
		if b.seen[id] {
			continue
		}
		b.seen[id] = true
		props := map[string]any{"name": s.Name, "kind": s.Kind, "file": s.File, "startLine": s.StartLine, "endLine": s.EndLine, "exported": s.Exported}
		if s.Container != "" {
			props["container"] = s.Container
		}
		g.Nodes = append(g.Nodes, Node{ID: id, Label: LabelSymbol, Key: SymbolKey(s.Kind, s.Name), Source: g.Source, Props: props})
		g.Edges = append(g.Edges, Edge{From: fileID, Type: EdgeDefines, To: id, Source: g.Source})
	}
}

// fileEdges keeps one edge per (type, target), with the symbols that make it.
func (b *builder) fileEdges(g *Group, fileID string, edges []indexer.Edge) {
	type key struct{ typ, to string }
	syms := map[key][]string{}
	var order []key
	for _, e := range edges {
		typ, ok := fileEdgeTypes[e.Kind]
		if !ok {
			continue
		}
		k := key{typ, e.To}
		if _, seen := syms[k]; !seen {
			order = append(order, k)
			syms[k] = nil
		}
		if e.Symbol != "" && !slices.Contains(syms[k], e.Symbol) {
			syms[k] = append(syms[k], e.Symbol)
		}
	}
	for _, k := range order {
		var props map[string]any
		if s := syms[k]; len(s) > 0 {
			sort.Strings(s)
			props = map[string]any{"symbols": strings.Join(s, ",")}
		}
		g.Edges = append(g.Edges, Edge{From: fileID, Type: k.typ, To: FileID(k.to), Source: g.Source, Props: props})
	}
}

// usages are the file's custom-element usages; the file's anchor is theirs.
func (b *builder) usages(g *Group, fileID, anc, ancID string, us []indexer.Usage) {
	clear(b.seen)
	for _, u := range us {
		id := usageID(u)
		if b.seen[id] {
			continue
		}
		b.seen[id] = true
		g.Nodes = append(g.Nodes, Node{ID: id, Label: LabelUsage, Key: u.Tag, Source: g.Source, Props: map[string]any{
			"tag": u.Tag, "file": u.File, "startLine": u.StartLine, "endLine": u.EndLine, "attrs": u.Attrs, "anchor": anc}})
		g.Edges = append(g.Edges,
			Edge{From: fileID, Type: EdgeHasUsage, To: id, Source: g.Source},
			Edge{From: id, Type: EdgeInstanceOf, To: ComponentID(u.Tag), Source: g.Source},
			Edge{From: id, Type: EdgeInAnchor, To: ancID, Source: g.Source})
	}
}

// fingerprint digests everything a file's group is built from. It is the
// same in every process (xxhash has no per-process seed, as maphash has),
// so the memo it keys can be kept on disk for the next process
// (memofile.go).
func fingerprint(file, lang, anchor string, syms []indexer.Symbol, edges []indexer.Edge, usages []indexer.Usage) uint64 {
	h := xxhash.New()
	var b [8]byte
	str := func(s string) {
		_, _ = h.WriteString(s) // a Digest's writes cannot fail
		b[0] = 0
		_, _ = h.Write(b[:1])
	}
	num := func(n int) {
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		_, _ = h.Write(b[:])
	}
	str(file)
	str(lang)
	str(anchor)
	num(len(syms))
	for _, s := range syms {
		str(s.Name)
		str(s.Kind)
		str(s.Container)
		num(s.StartLine)
		num(s.EndLine)
		b[0] = 0
		if s.Exported {
			b[0] = 1
		}
		_, _ = h.Write(b[:1])
	}
	num(len(edges))
	for _, e := range edges {
		str(e.Kind)
		str(e.To)
		str(e.Symbol)
	}
	num(len(usages))
	for _, u := range usages {
		str(u.Tag)
		str(u.Attrs)
		num(u.StartLine)
		num(u.EndLine)
	}
	return h.Sum64()
}
