// Package anchor resolves files to their domain anchors (seed 002 "Domain
// Anchors"): a file's folders up to a configured depth, stopping at an
// excluded folder. The knowledge graph seeds its DomainAnchor nodes with
// it and the memory learner keys friction signatures with it, so a
// memory learned in an anchor is the graph's anchor of the same name.
package anchor

import (
	"path"
	"strings"
)

// DefaultExclude are folders that are never domain anchors.
var DefaultExclude = []string{"node_modules", ".git", ".ai", "dist", "build", "coverage", ".angular", ".next", "out", "tmp", "vendor"}

// DefaultMaxDepth is how many folder levels become anchors by default.
const DefaultMaxDepth = 3

// Rules say which folders are anchors (config graph.anchors).
type Rules struct {
	// MaxDepth is how many leading folders of a file name its anchor;
	// 0 or less is DefaultMaxDepth.
	MaxDepth int
	// Exclude are folder names or path globs that never become anchors
	// (nor anything under them); nil is DefaultExclude.
	Exclude []string
}

// WithDefaults fills the zero fields.
func (r Rules) WithDefaults() Rules {
	if r.MaxDepth <= 0 {
		r.MaxDepth = DefaultMaxDepth
	}
	if r.Exclude == nil {
		r.Exclude = DefaultExclude
	}
	return r
}

// Of is a file's anchor: the deepest anchor above it, "" (the root) for a
// file at the root or under an excluded top folder.
func (r Rules) Of(file string) string {
	dir := path.Dir(strings.TrimPrefix(file, "/"))
	if dir == "." || dir == "/" {
		return ""
	}
	return r.OfDir(dir)
}

// OfDir is the anchor of a folder (slash-separated, workspace-relative).
func (r Rules) OfDir(dir string) string {
	r = r.WithDefaults()
	anchor := ""
	for i, p := range strings.Split(dir, "/") {
		if i >= r.MaxDepth {
			break
		}
		next := p
		if anchor != "" {
			next = anchor + "/" + p
		}
		if r.excluded(p, next) {
			break
		}
		anchor = next
	}
	return anchor
}

func (r Rules) excluded(segment, prefix string) bool {
	for _, pat := range r.Exclude {
		if ok, _ := path.Match(pat, segment); ok {
			return true
		}
		if ok, _ := path.Match(pat, prefix); ok {
			return true
		}
	}
	return false
}

// Parent is the anchor containing a, "" for a top-level one.
func Parent(a string) string {
	if i := strings.LastIndexByte(a, '/'); i >= 0 {
		return a[:i]
	}
	return ""
}
