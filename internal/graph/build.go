package graph

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpc/mcpc/internal/anchor"
	"github.com/mcpc/mcpc/internal/indexer"
	"github.com/mcpc/mcpc/internal/pathscope"
)

// CodeIndex is what the facts builder reads of the code index.
type CodeIndex interface {
	Root() string
	Files() []string
	Lang(file string) string
	AllSymbols() []indexer.Symbol
	Edges() []indexer.Edge
	Usages(tagPrefix string) []indexer.Usage
}

// Options configure which facts a sync gathers (config key graph).
type Options struct {
	// AnchorDepth is how many folder levels become domain anchors. Default 3.
	AnchorDepth int
	// AnchorExclude are folder names or path globs that never become
	// anchors. Default DefaultAnchorExclude.
	AnchorExclude []string
	// Contracts are extra workspace paths (globs) of component contract
	// files; every indexed file named components.d.ts is one anyway.
	Contracts []string
	// Prose are globs of markdown policy documents. Default docs/*.md and
	// skills.md.
	Prose []string
	// BatchRows bounds the rows one write transaction of a sync writes on a
	// BatchStore (the embedded graph, Neo4j). Default DefaultBatchRows.
	BatchRows int
}

// DefaultAnchorExclude are folders that are never domain anchors
// (internal/anchor's, which the memory learner uses too).
var DefaultAnchorExclude = anchor.DefaultExclude

// DefaultProse are the markdown documents read for prose policies.
var DefaultProse = []string{"docs/*.md", "skills.md"}

func (o *Options) defaults() {
	if o.AnchorDepth <= 0 {
		o.AnchorDepth = 3
	}
	if o.AnchorExclude == nil {
		o.AnchorExclude = DefaultAnchorExclude
	}
	if o.Prose == nil {
		o.Prose = DefaultProse
	}
}

// maxContractBytes and maxProseBytes bound the files the builder reads
// itself (the index has read everything else).
const (
	maxContractBytes = 8 << 20
	maxProseBytes    = 1 << 20
)

// Source names of the groups that are not one file.
const (
	SourceAnchors   = "anchors"
	SourceInventory = "inventory"
)

// Node id helpers: ids are stable across syncs and say their kind.
func FileID(file string) string     { return "file:" + file }
func AnchorID(anchor string) string { return "anchor:" + anchor }
func usageID(u indexer.Usage) string {
	return fmt.Sprintf("usage:%s:%d:%s", u.File, u.StartLine, u.Tag)
}
func symbolID(s indexer.Symbol) string {
	return fmt.Sprintf("symbol:%s#%s:%s@%d", s.File, s.Kind, s.Name, s.StartLine)
}

// SymbolKey is a symbol node's key: kind and name, so one prefix query
// finds all routes ("route:/") or one remote ("federation_remote:billing").
func SymbolKey(kind, name string) string { return kind + ":" + name }

// highSignalKinds are symbol kinds kept even when nested: the joints of
// proof chains.
var highSignalKinds = map[string]bool{"route": true, "selector": true, "grid_column": true, "cell_renderer": true,
	"federation_expose": true, "federation_remote": true, "pipe_name": true}

// Facts is the whole graph of a workspace, by group.
type Facts struct {
	Groups   map[string]*Group
	Problems []Problem // files the builder could not read (not fatal)
}

// Build gathers every fact: anchors, files, symbol headers, file edges,
// usages, contracts, seeds and prose rules. It reads the index from memory,
// and from disk only contract and prose files.
func Build(ix CodeIndex, seeds []SeedRow, o Options) (*Facts, error) {
	return NewBuilder(o).Build(ix, seeds)
}

// Builder builds facts and remembers each file's group with a fingerprint
// of what it was built from (the file's language, anchor, symbols, edges
// and usages in the index), so a later Build reuses the groups of files
// that did not change instead of building and hashing them again. serve
// keeps one for the life of the process. It is not safe for concurrent use.
type Builder struct {
	o    Options
	memo map[string]fileMemo
	// synced is what the last successful Sync was built from (nil when
	// the index is not Versioned or that sync failed), syncedSum its
	// summary.
	synced    *sourceStamp
	syncedSum SyncSummary
	// built are the facts of the last build whose write has not finished,
	// builtFrom their stamp.
	built     *Facts
	builtFrom *sourceStamp
}

type fileMemo struct {
	fp    uint64
	group *Group
}

// NewBuilder returns a Builder for the options.
func NewBuilder(o Options) *Builder {
	o.defaults()
	return &Builder{o: o, memo: map[string]fileMemo{}}
}

// Build gathers every fact (see the package Build).
func (bl *Builder) Build(ix CodeIndex, seeds []SeedRow) (*Facts, error) {
	o := bl.o
	b := &builder{ix: ix, o: o, facts: &Facts{Groups: map[string]*Group{}}, anchors: map[string]bool{"": true}, anchorByDir: map[string]string{},
		reused: map[*Group]bool{}, dropped: map[string]bool{}}
	next := make(map[string]fileMemo, len(bl.memo))
	files := ix.Files()
	for _, f := range files {
		b.addAnchors(f)
	}
	b.anchorGroup()
	symbolsOf := map[string][]indexer.Symbol{}
	for _, s := range ix.AllSymbols() {
		symbolsOf[s.File] = append(symbolsOf[s.File], s)
	}
	edgesOf := map[string][]indexer.Edge{}
	for _, e := range ix.Edges() {
		edgesOf[e.From] = append(edgesOf[e.From], e)
	}
	usagesOf := map[string][]indexer.Usage{}
	for _, u := range ix.Usages("") {
		usagesOf[u.File] = append(usagesOf[u.File], u)
	}
	declared := map[string]bool{}
	for _, f := range files {
		anchor := b.anchorOf(f)
		contract := b.isContract(f)
		fp := fingerprint(f, ix.Lang(f), anchor, symbolsOf[f], edgesOf[f], usagesOf[f])
		if m, ok := bl.memo[f]; ok && m.fp == fp && !contract {
			b.facts.Groups[m.group.Source] = m.group
			b.reused[m.group] = true
			next[f] = m
			continue
		}
		g := b.group("file:" + f)
		if !contract { // a contract's props are not in the index: always re-read
			next[f] = fileMemo{fp: fp, group: g}
		}
		g.Nodes = append(g.Nodes, Node{ID: FileID(f), Label: LabelFile, Key: f, Source: g.Source, Props: map[string]any{"lang": ix.Lang(f), "anchor": anchor}})
		g.Edges = append(g.Edges, Edge{From: FileID(f), Type: EdgeInAnchor, To: AnchorID(anchor), Source: g.Source})
		b.symbols(g, f, symbolsOf[f])
		b.fileEdges(g, f, edgesOf[f])
		b.usages(g, usagesOf[f])
		if contract {
			b.contracts(g, f, declared)
		}
	}
	bl.memo = next
	b.unindexedContracts(files, declared)
	inv := b.group(SourceInventory)
	var used []string
	for _, u := range ix.Usages("") {
		if !declared[u.Tag] {
			declared[u.Tag] = true
			used = append(used, u.Tag)
		}
	}
	sort.Strings(used)
	for _, tag := range used {
		inv.Nodes = append(inv.Nodes, Node{ID: ComponentID(tag), Label: LabelComponent, Key: tag, Source: inv.Source, Props: map[string]any{"declared": false}})
	}
	for src, g := range seedFacts(seeds) {
		b.facts.Groups[src] = g
	}
	b.prose(files)
	b.finish()
	for f := range bl.memo {
		if b.dropped["file:"+f] {
			delete(bl.memo, f)
		}
	}
	return b.facts, nil
}

type builder struct {
	ix      CodeIndex
	o       Options
	facts   *Facts
	anchors map[string]bool
	// anchorByDir caches anchorOf: glob matching every folder of every
	// file was a tenth of a sync.
	anchorByDir map[string]string
	// reused are groups taken from the Builder's memo, already hashed.
	reused map[*Group]bool
	// dropped are groups that lost an edge to a missing node: their content
	// depends on more than their fingerprint, so they are not remembered.
	dropped map[string]bool
}

func (b *builder) group(src string) *Group {
	g := b.facts.Groups[src]
	if g == nil {
		g = &Group{Source: src}
		b.facts.Groups[src] = g
	}
	return g
}

// anchorOf is the deepest anchor above a file: its folders up to the
// configured depth, stopping at an excluded folder.
func (b *builder) anchorOf(file string) string {
	dir := path.Dir(file)
	if dir == "." {
		return ""
	}
	if a, ok := b.anchorByDir[dir]; ok {
		return a
	}
	a := b.anchorOfDir(dir)
	b.anchorByDir[dir] = a
	return a
}

// anchorOfDir is internal/anchor's resolution, the one the memory
// learner keys friction with.
func (b *builder) anchorOfDir(dir string) string {
	return anchor.Rules{MaxDepth: b.o.AnchorDepth, Exclude: b.o.AnchorExclude}.OfDir(dir)
}

func (b *builder) addAnchors(file string) {
	a := b.anchorOf(file)
	for a != "" && !b.anchors[a] {
		b.anchors[a] = true
		a = parentAnchor(a)
	}
}

func parentAnchor(a string) string { return anchor.Parent(a) }

func (b *builder) anchorGroup() {
	g := b.group(SourceAnchors)
	list := make([]string, 0, len(b.anchors))
	for a := range b.anchors {
		list = append(list, a)
	}
	sort.Strings(list)
	for _, a := range list {
		depth := 0
		if a != "" {
			depth = strings.Count(a, "/") + 1
		}
		g.Nodes = append(g.Nodes, Node{ID: AnchorID(a), Label: LabelDomainAnchor, Key: a, Source: g.Source, Props: map[string]any{"depth": depth}})
		if a != "" {
			g.Edges = append(g.Edges, Edge{From: AnchorID(parentAnchor(a)), Type: EdgeContains, To: AnchorID(a), Source: g.Source})
		}
	}
}

func (b *builder) symbols(g *Group, file string, syms []indexer.Symbol) {
	seen := map[string]bool{}
	for _, s := range syms {
		if s.Container != "" && !highSignalKinds[s.Kind] {
			continue
		}
		id := symbolID(s)
		if seen[id] {
			continue
		}
		seen[id] = true
		props := map[string]any{"name": s.Name, "kind": s.Kind, "file": s.File, "startLine": s.StartLine, "endLine": s.EndLine, "exported": s.Exported}
		if s.Container != "" {
			props["container"] = s.Container
		}
		g.Nodes = append(g.Nodes, Node{ID: id, Label: LabelSymbol, Key: SymbolKey(s.Kind, s.Name), Source: g.Source, Props: props})
		g.Edges = append(g.Edges, Edge{From: FileID(file), Type: EdgeDefines, To: id, Source: g.Source})
	}
}

// fileEdges keeps one edge per (type, target), with the symbols that make it.
func (b *builder) fileEdges(g *Group, file string, edges []indexer.Edge) {
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
		if e.Symbol != "" && !contains(syms[k], e.Symbol) {
			syms[k] = append(syms[k], e.Symbol)
		}
	}
	for _, k := range order {
		var props map[string]any
		if s := syms[k]; len(s) > 0 {
			sort.Strings(s)
			props = map[string]any{"symbols": strings.Join(s, ",")}
		}
		g.Edges = append(g.Edges, Edge{From: FileID(file), Type: k.typ, To: FileID(k.to), Source: g.Source, Props: props})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (b *builder) usages(g *Group, us []indexer.Usage) {
	seen := map[string]bool{}
	for _, u := range us {
		id := usageID(u)
		if seen[id] {
			continue
		}
		seen[id] = true
		anchor := b.anchorOf(u.File)
		g.Nodes = append(g.Nodes, Node{ID: id, Label: LabelUsage, Key: u.Tag, Source: g.Source, Props: map[string]any{
			"tag": u.Tag, "file": u.File, "startLine": u.StartLine, "endLine": u.EndLine, "attrs": u.Attrs, "anchor": anchor}})
		g.Edges = append(g.Edges,
			Edge{From: FileID(u.File), Type: EdgeHasUsage, To: id, Source: g.Source},
			Edge{From: id, Type: EdgeInstanceOf, To: ComponentID(u.Tag), Source: g.Source},
			Edge{From: id, Type: EdgeInAnchor, To: AnchorID(anchor), Source: g.Source})
	}
}

func (b *builder) isContract(file string) bool {
	if path.Base(file) == "components.d.ts" {
		return true
	}
	for _, pat := range b.o.Contracts {
		if ok, _ := path.Match(pat, file); ok {
			return true
		}
	}
	return false
}

// readBounded reads a workspace file the builder needs itself, refusing
// symlinks and files over max.
func (b *builder) readBounded(file string, max int64) ([]byte, error) {
	return readWorkspaceFile(b.ix.Root(), file, max)
}

// readWorkspaceFile reads a workspace file through pathscope: no symlink
// followed at any level, no FIFO opened, at most max bytes. Graph facts are
// repository content; a link must not make them read outside it.
func readWorkspaceFile(root, file string, max int64) ([]byte, error) {
	res, err := pathscope.New(root)
	if err != nil {
		return nil, err
	}
	return res.ReadFile(file, max)
}

// maxUnindexedContracts bounds the contract files read outside the index.
const maxUnindexedContracts = 20

// unindexedContracts reads configured contract files the index does not
// hold, typically a design system's components.d.ts under node_modules
// (graph.contracts: ["node_modules/@acme/ds/dist/types/components.d.ts"]).
// Their groups are "contract:<path>".
func (b *builder) unindexedContracts(files []string, declared map[string]bool) {
	indexed := make(map[string]bool, len(files))
	for _, f := range files {
		indexed[f] = true
	}
	n := 0
	for _, pat := range b.o.Contracts {
		if !filepath.IsLocal(filepath.FromSlash(pat)) {
			b.facts.Problems = append(b.facts.Problems, Problem{File: pat, Message: "graph.contracts entries are workspace-relative"})
			continue
		}
		matches, err := filepath.Glob(filepath.Join(b.ix.Root(), filepath.FromSlash(pat)))
		if err != nil {
			b.facts.Problems = append(b.facts.Problems, Problem{File: pat, Message: err.Error()})
			continue
		}
		for _, m := range matches {
			rel, err := filepath.Rel(b.ix.Root(), m)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			if indexed[rel] || b.facts.Groups["contract:"+rel] != nil {
				continue
			}
			if n++; n > maxUnindexedContracts {
				b.facts.Problems = append(b.facts.Problems, Problem{File: rel, Message: fmt.Sprintf("more than %d contract files outside the index; skipped", maxUnindexedContracts)})
				return
			}
			b.contracts(b.group("contract:"+rel), rel, declared) // read through pathscope: no link followed
		}
	}
}

func (b *builder) contracts(g *Group, file string, declared map[string]bool) {
	src, err := b.readBounded(file, maxContractBytes)
	if err != nil {
		b.facts.Problems = append(b.facts.Problems, Problem{File: file, Message: err.Error()})
		return
	}
	cs, err := ParseContracts(src)
	if err != nil {
		b.facts.Problems = append(b.facts.Problems, Problem{File: file, Message: err.Error()})
		return
	}
	for _, c := range cs {
		if declared[c.Tag] {
			continue // the first contract file (in path order) declares a tag
		}
		declared[c.Tag] = true
		cid := ComponentID(c.Tag)
		g.Nodes = append(g.Nodes, Node{ID: cid, Label: LabelComponent, Key: c.Tag, Source: g.Source, Props: map[string]any{"declared": true, "contract": file, "events": strings.Join(c.Events, ",")}})
		g.Edges = append(g.Edges, Edge{From: cid, Type: EdgeDeclaredIn, To: FileID(file), Source: g.Source})
		for _, p := range c.Props {
			pid := "prop:" + c.Tag + "." + p.Name
			g.Nodes = append(g.Nodes, Node{ID: pid, Label: LabelProp, Key: p.Name, Source: g.Source, Props: map[string]any{"component": c.Tag, "name": p.Name, "type": p.Type, "required": p.Required}})
			g.Edges = append(g.Edges, Edge{From: cid, Type: EdgeHasProp, To: pid, Source: g.Source})
		}
	}
}

func (b *builder) prose(files []string) {
	for _, f := range files {
		if !matchAny(b.o.Prose, f) {
			continue
		}
		src, err := b.readBounded(f, maxProseBytes)
		if err != nil {
			b.facts.Problems = append(b.facts.Problems, Problem{File: f, Message: err.Error()})
			continue
		}
		g := b.group("prose:" + f)
		for _, r := range ParseProse(f, src) {
			id := fmt.Sprintf("prose:%s:%d", r.File, r.Line)
			var tags, scopes []string
			for _, w := range r.Words {
				if strings.Contains(w, "/") {
					if a := strings.TrimRight(w, "/.,;:)"); b.anchors[a] && !contains(scopes, a) {
						scopes = append(scopes, a)
					}
				} else if !contains(tags, w) {
					tags = append(tags, w)
				}
			}
			if len(scopes) == 0 {
				scopes = []string{proseScope(f, b.anchorOf)}
			}
			g.Nodes = append(g.Nodes, Node{ID: id, Label: LabelProsePolicy, Key: f, Source: g.Source, Props: map[string]any{
				"file": f, "line": r.Line, "heading": r.Heading, "text": r.Text, "strength": r.Strength, "scopes": strings.Join(scopes, ",")}})
			for _, t := range tags {
				g.Edges = append(g.Edges, Edge{From: id, Type: EdgeMentions, To: ComponentID(t), Source: g.Source})
			}
		}
	}
}

func matchAny(globs []string, file string) bool {
	for _, pat := range globs {
		if ok, _ := path.Match(pat, file); ok {
			return true
		}
	}
	return false
}

// finish drops edges whose ends no group produces (a tag mentioned in prose
// that nothing declares or uses, an import of an unindexed file), so a
// group's hash changes when an end appears and the edge is written then;
// and it hashes every group.
func (b *builder) finish() {
	n := 0
	for _, g := range b.facts.Groups {
		n += len(g.Nodes)
	}
	ids := make(map[string]bool, n)
	for _, g := range b.facts.Groups {
		for _, n := range g.Nodes {
			ids[n.ID] = true
		}
	}
	for _, g := range b.facts.Groups {
		kept := g.Edges[:0]
		for _, e := range g.Edges {
			if ids[e.From] && ids[e.To] {
				kept = append(kept, e)
			}
		}
		if len(kept) != len(g.Edges) {
			b.dropped[g.Source] = true
		} else if b.reused[g] {
			continue // unchanged since it was hashed
		}
		g.Edges = kept
		h := sha256.New()
		var buf []byte
		for _, n := range g.Nodes {
			buf = appendNode(buf[:0], n)
			h.Write(buf)
		}
		for _, e := range g.Edges {
			buf = appendEdge(buf[:0], e)
			h.Write(buf)
		}
		g.Hash = hex.EncodeToString(h.Sum(nil))[:32]
	}
}

// appendNode and appendEdge write a fact's content for hashing: fields in
// a fixed order, properties by sorted key, each value typed, so equal facts
// give equal bytes without the cost of JSON encoding every sync.
func appendNode(buf []byte, n Node) []byte {
	buf = append(buf, 'N')
	for _, s := range []string{n.ID, n.Label, n.Key, n.Source} {
		buf = appendField(buf, s)
	}
	return appendProps(buf, n.Props)
}

func appendEdge(buf []byte, e Edge) []byte {
	buf = append(buf, 'E')
	for _, s := range []string{e.From, e.Type, e.To, e.Source} {
		buf = appendField(buf, s)
	}
	return appendProps(buf, e.Props)
}

func appendField(buf []byte, s string) []byte {
	buf = strconv.AppendInt(buf, int64(len(s)), 10)
	buf = append(buf, ':')
	return append(buf, s...)
}

func appendProps(buf []byte, p map[string]any) []byte {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		buf = appendField(buf, k)
		buf = appendValue(buf, p[k])
	}
	return append(buf, '\n')
}

func appendValue(buf []byte, v any) []byte {
	switch x := v.(type) {
	case string:
		return appendField(append(buf, 's'), x)
	case int:
		return strconv.AppendInt(append(buf, 'i'), int64(x), 10)
	case bool:
		return strconv.AppendBool(append(buf, 'b'), x)
	case float64:
		return strconv.AppendFloat(append(buf, 'f'), x, 'g', -1, 64)
	default: // seed rows: nested JSON values
		raw, err := json.Marshal(x)
		if err != nil {
			raw = []byte(fmt.Sprintf("%#v", x)) // unmarshalable values fail later, in Apply
		}
		return appendField(append(buf, 'j'), string(raw))
	}
}

var fingerprintSeed = maphash.MakeSeed()

// fingerprint digests everything a file's group is built from. It is
// process-local (maphash), like the memo it keys.
func fingerprint(file, lang, anchor string, syms []indexer.Symbol, edges []indexer.Edge, usages []indexer.Usage) uint64 {
	var h maphash.Hash
	h.SetSeed(fingerprintSeed)
	str := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	num := func(n int) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], uint64(n))
		h.Write(b[:])
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
		if s.Exported {
			h.WriteByte(1)
		} else {
			h.WriteByte(0)
		}
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
