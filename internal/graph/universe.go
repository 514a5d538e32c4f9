package graph

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpc/mcpc/internal/anchor"
	"github.com/mcpc/mcpc/internal/indexer"
)

// universe is what a build knows before it builds any group: which nodes
// other groups may point at exist. Only three kinds of node are ever the
// end of another group's edge: files (imports, a contract's declared_in),
// components (usages, prose mentions, seeds) and domain anchors; every
// other node (a symbol, a usage, a prop, a rule) is pointed at only from
// its own group, whose ids embed its source. So a group's edges can be
// checked against its own nodes and the universe alone, and groups can be
// built, hashed and written one at a time: holding every group to check
// edges against all nodes cost 48,000-file trees about 500 MB.
//
// The contract files are read here, in path order, because the first to
// declare a tag owns its component node and the set of components must be
// known before the first group that points at one.
type universe struct {
	files []string
	// fileSet, components and anchors map each key to itself: the memo
	// keeps the key of an edge's end, and this way it shares the index's
	// string instead of a copy cut from the edge's id.
	fileSet    map[string]string
	components map[string]string
	anchors    map[string]string
	// rules resolve a folder's anchor; anchorByDir caches anchorOf: glob
	// matching every folder of every file was a tenth of a sync.
	rules       anchor.Rules
	anchorByDir map[string]string
	anchorIDs   map[string]string
	// declares are the contracts each contract file declares first, for
	// its group (indexed files) or its own "contract:" group (unindexed).
	declares   map[string][]Contract
	unindexed  []string // unindexed contract files with a group, in order
	contracted map[string]bool
	undeclared []string // used tags no contract declares, sorted
	// usages are the index's, read once: the components come from their
	// tags and the file groups from their runs.
	usages   []indexer.Usage
	problems []Problem
}

// endKind is which kind of node an edge's end in another group is.
type endKind uint8

const (
	endFile endKind = iota + 1
	endComponent
	endAnchor
)

// groupEnd is the end of a group's edge in another group, and whether it
// existed when the group was built: a memoized group is reused only while
// each of its ends still exists, or still does not.
type groupEnd struct {
	key     string
	kind    endKind
	present bool
}

// end resolves an edge's end outside its group. ok is false for an id of
// a kind no other group produces.
func (u *universe) end(id string) (groupEnd, bool) {
	for _, k := range []struct {
		prefix string
		kind   endKind
		set    map[string]string
	}{{"file:", endFile, u.fileSet}, {"component:", endComponent, u.components}, {"anchor:", endAnchor, u.anchors}} {
		if key, ok := strings.CutPrefix(id, k.prefix); ok {
			if canon, present := k.set[key]; present {
				return groupEnd{key: canon, kind: k.kind, present: true}, true
			}
			return groupEnd{key: strings.Clone(key), kind: k.kind}, true
		}
	}
	return groupEnd{}, false
}

// holds reports whether an end exists now exactly when it did.
func (u *universe) holds(e groupEnd) bool {
	var set map[string]string
	switch e.kind {
	case endFile:
		set = u.fileSet
	case endComponent:
		set = u.components
	case endAnchor:
		set = u.anchors
	}
	_, present := set[e.key]
	return present == e.present
}

// newUniverse gathers the files, anchors and components of the index, and
// parses the contract files.
func (bl *Builder) newUniverse(ix CodeIndex) *universe {
	files := ix.Files()
	u := &universe{files: files, fileSet: make(map[string]string, len(files)), components: map[string]string{},
		anchors: map[string]string{"": ""}, rules: anchor.Rules{MaxDepth: bl.o.AnchorDepth, Exclude: bl.o.AnchorExclude}, anchorByDir: map[string]string{}, anchorIDs: map[string]string{}, declares: map[string][]Contract{},
		contracted: map[string]bool{}}
	declared := map[string]bool{}
	for _, f := range files {
		u.fileSet[f] = f
		for a := u.anchorOf(f); a != ""; a = anchor.Parent(a) {
			if _, seen := u.anchors[a]; seen {
				break
			}
			u.anchors[a] = a
		}
		if bl.isContract(f) {
			u.contracted[f] = true
			u.declares[f] = u.readContracts(ix.Root(), f, declared)
		}
	}
	u.unindexedContracts(bl.o.Contracts, ix.Root(), declared)
	for tag := range declared {
		u.components[tag] = tag
	}
	u.usages = ix.Usages("") // a copy of every usage: taken once per sync
	for _, us := range u.usages {
		if _, ok := u.components[us.Tag]; !ok {
			u.components[us.Tag] = us.Tag
			u.undeclared = append(u.undeclared, us.Tag)
		}
	}
	sort.Strings(u.undeclared)
	return u
}

// anchorOf is the deepest anchor above a file: its folders up to the
// configured depth, stopping at an excluded folder (internal/anchor's
// resolution, the one the memory learner keys friction with).
func (u *universe) anchorOf(file string) string {
	dir := path.Dir(file)
	if dir == "." {
		return ""
	}
	if a, ok := u.anchorByDir[dir]; ok {
		return a
	}
	a := u.rules.OfDir(dir)
	u.anchorByDir[dir] = a
	return a
}

// anchorID is AnchorID, made once per anchor.
func (u *universe) anchorID(a string) string {
	id, ok := u.anchorIDs[a]
	if !ok {
		id = AnchorID(a)
		u.anchorIDs[a] = id
	}
	return id
}

func (bl *Builder) isContract(file string) bool {
	if path.Base(file) == "components.d.ts" {
		return true
	}
	for _, pat := range bl.o.Contracts {
		if ok, _ := path.Match(pat, file); ok {
			return true
		}
	}
	return false
}

// readContracts parses a contract file and returns the contracts whose
// tags no earlier contract file declared.
func (u *universe) readContracts(root, file string, declared map[string]bool) []Contract {
	src, err := readWorkspaceFile(root, file, maxContractBytes)
	if err != nil {
		u.problems = append(u.problems, Problem{File: file, Message: err.Error()})
		return nil
	}
	cs, err := ParseContracts(src)
	if err != nil {
		u.problems = append(u.problems, Problem{File: file, Message: err.Error()})
		return nil
	}
	var out []Contract
	for _, c := range cs {
		if !declared[c.Tag] { // the first contract file (in path order) declares a tag
			declared[c.Tag] = true
			out = append(out, c)
		}
	}
	return out
}

// maxUnindexedContracts bounds the contract files read outside the index.
const maxUnindexedContracts = 20

// unindexedContracts reads configured contract files the index does not
// hold, typically a design system's components.d.ts under node_modules
// (graph.contracts: ["node_modules/@acme/ds/dist/types/components.d.ts"]).
// Their groups are "contract:<path>".
func (u *universe) unindexedContracts(patterns []string, root string, declared map[string]bool) {
	n := 0
	for _, pat := range patterns {
		if !filepath.IsLocal(filepath.FromSlash(pat)) {
			u.problems = append(u.problems, Problem{File: pat, Message: "graph.contracts entries are workspace-relative"})
			continue
		}
		matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(pat)))
		if err != nil {
			u.problems = append(u.problems, Problem{File: pat, Message: err.Error()})
			continue
		}
		for _, m := range matches {
			rel, err := filepath.Rel(root, m)
			if err != nil {
				continue
			}
			rel = filepath.ToSlash(rel)
			if _, indexed := u.fileSet[rel]; indexed {
				continue
			}
			if _, done := u.declares[rel]; done {
				continue
			}
			if n++; n > maxUnindexedContracts {
				u.problems = append(u.problems, Problem{File: rel, Message: fmt.Sprintf("more than %d contract files outside the index; skipped", maxUnindexedContracts)})
				return
			}
			u.unindexed = append(u.unindexed, rel)
			u.declares[rel] = u.readContracts(root, rel, declared) // read through pathscope: no link followed
		}
	}
}

// anchorGroup is the tree of domain anchors.
func (u *universe) anchorGroup() *Group {
	g := &Group{Source: SourceAnchors}
	list := make([]string, 0, len(u.anchors))
	for a := range u.anchors {
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
			g.Edges = append(g.Edges, Edge{From: AnchorID(anchor.Parent(a)), Type: EdgeContains, To: AnchorID(a), Source: g.Source})
		}
	}
	return g
}

// inventoryGroup holds the components that are used but declared by no
// contract.
func (u *universe) inventoryGroup() *Group {
	g := &Group{Source: SourceInventory}
	for _, tag := range u.undeclared {
		g.Nodes = append(g.Nodes, Node{ID: ComponentID(tag), Label: LabelComponent, Key: tag, Source: g.Source, Props: map[string]any{"declared": false}})
	}
	return g
}

// contractNodes adds the components a contract file declares, with their
// props, to its group.
func contractNodes(g *Group, file string, cs []Contract) {
	for _, c := range cs {
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
