package graph

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

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
	// HeldRows bounds the nodes and edges of changed groups a sync holds
	// to write them as one change; a larger change is written as it is
	// built (see syncWrite). Default DefaultHeldRows.
	HeldRows int
	// MemoFile is where a Builder keeps its memo between processes
	// (memofile.go). Default "": the memo lives as long as the Builder.
	MemoFile string `json:"-"`
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
	if o.BatchRows <= 0 {
		o.BatchRows = DefaultBatchRows
	}
	if o.HeldRows <= 0 {
		o.HeldRows = DefaultHeldRows
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
// and from disk only contract and prose files. It holds every group; Sync
// does not.
func Build(ix CodeIndex, seeds []SeedRow, o Options) (*Facts, error) {
	return NewBuilder(o).Build(ix, seeds)
}

// Builder builds facts and remembers, for each file, a fingerprint of what
// its group was built from (the file's language, anchor, symbols, edges
// and usages in the index), the group's hash and the ends of its edges in
// other groups, so a later build neither builds nor hashes the groups of
// files that did not change while those ends stay as they were. serve
// keeps one for the life of the process; it keeps no group itself. It is
// not safe for concurrent use.
type Builder struct {
	o    Options
	memo map[string]fileMemo
	// synced is what the last successful Sync was built from (nil when
	// the index is not Versioned or that sync failed), syncedSum its
	// summary.
	synced    *sourceStamp
	syncedSum SyncSummary
	// memoRead says Options.MemoFile was read; memoDirty that a build
	// changed the memo since it was read or written; memoWrites is the
	// write in flight; memoErr (under memoMu) is the next summary's
	// MemoError.
	memoRead, memoDirty bool
	memoWrites          sync.WaitGroup
	memoMu              sync.Mutex
	memoErr             error
	// built counts the file groups the last build of every group built.
	built int
}

type fileMemo struct {
	fp     uint64
	source string
	hash   string
	ends   []groupEnd
}

// NewBuilder returns a Builder for the options.
func NewBuilder(o Options) *Builder {
	o.defaults()
	return &Builder{o: o, memo: map[string]fileMemo{}}
}

// Build gathers every fact (see the package Build).
func (bl *Builder) Build(ix CodeIndex, seeds []SeedRow) (*Facts, error) {
	facts := &Facts{Groups: map[string]*Group{}}
	probs, err := bl.each(ix, bl.newUniverse(ix), seeds, nil, func(string, string) bool { return true },
		func(src, _ string, g *Group) error {
			facts.Groups[src] = g
			return nil
		})
	if err != nil {
		return nil, err
	}
	facts.Problems = probs
	return facts, nil
}

// builder is one pass over the groups.
type builder struct {
	u *universe
	// own, ends and seen are scratch sets reused group after group.
	own  map[string]struct{}
	ends map[groupEnd]struct{}
	seen map[string]bool
	buf  []byte
}

// each builds the groups one at a time and hands each to take, in a fixed
// order: the anchor tree, the indexed files in path order, the unindexed
// contracts, the inventory, the seed files and the prose documents. want
// (nil: every group, and the memo is renewed) says which groups to build
// at all. A file whose memo holds is built only when need says its
// content is wanted for its hash; take then gets the hash with g nil.
func (bl *Builder) each(ix CodeIndex, u *universe, seeds []SeedRow, want func(src string) bool,
	need func(src, hash string) bool, take func(src, hash string, g *Group) error) ([]Problem, error) {
	b := &builder{u: u,
		own: map[string]struct{}{}, ends: map[groupEnd]struct{}{}, seen: map[string]bool{}}
	wanted := func(src string) bool { return want == nil || want(src) }
	sealed := func(g *Group) error {
		b.seal(g)
		return take(g.Source, g.Hash, g)
	}
	if wanted(SourceAnchors) {
		if err := sealed(u.anchorGroup()); err != nil {
			return nil, err
		}
	}
	renew := want == nil
	next := bl.memo
	if renew {
		next = make(map[string]fileMemo, len(bl.memo))
		bl.built = 0
	}
	runs := newFactRuns(ix, u.usages)
	for _, f := range u.files {
		syms, edges, usages := runs.of(f)
		m, remembered := bl.memo[f]
		src := m.source
		if !remembered {
			src = FileID(f)
		}
		if !wanted(src) {
			continue
		}
		lang, anc := ix.Lang(f), u.anchorOf(f)
		contract := u.contracted[f] // its props are not in the index: always re-read
		fp := fingerprint(f, lang, anc, syms, edges, usages)
		if remembered && !contract && m.fp == fp && u.holdsAll(m.ends) {
			if renew {
				next[f] = m
			}
			if !need(src, m.hash) {
				if err := take(src, m.hash, nil); err != nil {
					return nil, err
				}
				continue
			}
		}
		g := b.fileGroup(src, f, lang, anc, syms, edges, usages)
		if renew {
			bl.built++
		}
		if contract {
			contractNodes(g, f, u.declares[f])
		}
		ends, memoizable := b.seal(g)
		if renew && memoizable && !contract {
			next[f] = fileMemo{fp: fp, source: src, hash: g.Hash, ends: ends}
			bl.memoDirty = true
		}
		if err := take(src, g.Hash, g); err != nil {
			return nil, err
		}
	}
	if len(next) != len(bl.memo) {
		bl.memoDirty = true // files left
	}
	bl.memo = next
	for _, rel := range u.unindexed {
		if src := "contract:" + rel; wanted(src) {
			g := &Group{Source: src}
			contractNodes(g, rel, u.declares[rel])
			if err := sealed(g); err != nil {
				return nil, err
			}
		}
	}
	if wanted(SourceInventory) {
		if err := sealed(u.inventoryGroup()); err != nil {
			return nil, err
		}
	}
	seedGroups := seedFacts(seeds)
	for _, src := range sortedSources(seedGroups) {
		if wanted(src) {
			if err := sealed(seedGroups[src]); err != nil {
				return nil, err
			}
		}
	}
	probs := append([]Problem(nil), u.problems...)
	for _, f := range u.files {
		if !matchAny(bl.o.Prose, f) || !wanted("prose:"+f) {
			continue
		}
		g, err := b.proseGroup(ix.Root(), f)
		if err != nil {
			probs = append(probs, Problem{File: f, Message: err.Error()})
			continue
		}
		if err := sealed(g); err != nil {
			return nil, err
		}
	}
	return probs, nil
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

// proseGroup is the prose rules of one markdown document.
func (b *builder) proseGroup(root, f string) (*Group, error) {
	src, err := readWorkspaceFile(root, f, maxProseBytes)
	if err != nil {
		return nil, err
	}
	g := &Group{Source: "prose:" + f}
	for _, r := range ParseProse(f, src) {
		id := fmt.Sprintf("prose:%s:%d", r.File, r.Line)
		var tags, scopes []string
		for _, w := range r.Words {
			if strings.Contains(w, "/") {
				a := strings.TrimRight(w, "/.,;:)")
				if _, ok := b.u.anchors[a]; ok && !slices.Contains(scopes, a) {
					scopes = append(scopes, a)
				}
			} else if !slices.Contains(tags, w) {
				tags = append(tags, w)
			}
		}
		if len(scopes) == 0 {
			scopes = []string{proseScope(f, b.u.anchorOf)}
		}
		g.Nodes = append(g.Nodes, Node{ID: id, Label: LabelProsePolicy, Key: f, Source: g.Source, Props: map[string]any{
			"file": f, "line": r.Line, "heading": r.Heading, "text": r.Text, "strength": r.Strength, "scopes": strings.Join(scopes, ",")}})
		for _, t := range tags {
			g.Edges = append(g.Edges, Edge{From: id, Type: EdgeMentions, To: ComponentID(t), Source: g.Source})
		}
	}
	return g, nil
}

func matchAny(globs []string, file string) bool {
	for _, pat := range globs {
		if ok, _ := path.Match(pat, file); ok {
			return true
		}
	}
	return false
}

func sortedSources(m map[string]*Group) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
