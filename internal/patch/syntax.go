package patch

import (
	"context"
	"path"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/grammar"
)

func isScript(lang string) bool {
	return lang == grammar.TypeScript || lang == grammar.TSX || lang == grammar.JavaScript
}

// parse parses src with lang's grammar; it stops, returning ctx's error,
// as soon as ctx ends (deadline or cancellation: a SIGTERM does not wait
// for a parse). The parser polls ctx through its progress callback every
// hundred operations; measured, that costs nothing visible beside the
// parse itself. The caller closes the tree.
func parse(ctx context.Context, lang string, src []byte) (*sitter.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(grammar.Languages[lang]); err != nil {
		return nil, errorf(KindParseFailed, "no %s parser: %v", lang, err)
	}
	read := func(i int, _ sitter.Point) []byte {
		if i >= len(src) {
			return nil
		}
		return src[i:]
	}
	opts := &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { return ctx.Err() != nil }}
	tree := p.ParseWithOptions(read, nil, opts)
	if err := ctx.Err(); err != nil {
		if tree != nil {
			tree.Close()
		}
		return nil, err
	}
	if tree == nil {
		return nil, errorf(KindParseFailed, "the %s parser gave no tree", lang)
	}
	return tree, nil
}

// walk visits n and its descendants in document order until visit returns
// false for a node (its subtree is then skipped). It checks ctx every few
// hundred nodes; a tree is finite, so the walk ends either way.
func walk(ctx context.Context, n *sitter.Node, visit func(*sitter.Node) bool) error {
	c := n.Walk()
	defer c.Close()
	steps := 0
	for {
		if steps++; steps%512 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		descend := visit(c.Node())
		if descend && c.GotoFirstChild() {
			continue
		}
		for !c.GotoNextSibling() {
			if !c.GotoParent() {
				return nil
			}
		}
	}
}

// namedChildren are n's named children, in one pass: NamedChild(i) walks
// from the first child each time, so a loop over it is quadratic in a node
// with many children (an element with thousands of attributes).
func namedChildren(n *sitter.Node) []sitter.Node {
	c := n.Walk()
	defer c.Close()
	return n.NamedChildren(c)
}

// text is n's source text.
func text(n *sitter.Node, src []byte) string { return string(src[n.StartByte():n.EndByte()]) }

// splice is one replacement of src[start:end].
type splice struct {
	start, end uint
	with       string
}

// applySplices applies non-overlapping splices to src; every byte outside
// them is copied as it was. Splices that overlap are a conflict: the
// codemod named two edits of the same bytes.
func applySplices(src string, sp []splice) (string, error) {
	slices.SortStableFunc(sp, func(a, b splice) int {
		if a.start != b.start {
			return int(a.start) - int(b.start)
		}
		return int(a.end) - int(b.end)
	})
	var b strings.Builder
	grow := len(src)
	for _, s := range sp {
		grow += len(s.with)
	}
	b.Grow(grow)
	at := uint(0)
	for _, s := range sp {
		if s.start < at || s.end < s.start || s.end > uint(len(src)) {
			return "", errorf(KindConflict, "two edits of the codemod touch the same text at byte %d", s.start)
		}
		b.WriteString(src[at:s.start])
		b.WriteString(s.with)
		at = s.end
	}
	b.WriteString(src[at:])
	return b.String(), nil
}

// parseScript parses a script file for a codemod that works on scripts
// only; the caller closes the tree.
func parseScript(ctx context.Context, codemod string, in Input) (*sitter.Tree, []byte, error) {
	lang, err := requireLang(codemod, in.File, isScript)
	if err != nil {
		return nil, nil, err
	}
	src := []byte(in.Content)
	tree, err := parse(ctx, lang, src)
	return tree, src, err
}

// requireLang returns the file's grammar when it is one of want.
func requireLang(codemod, file string, want func(string) bool) (string, error) {
	lang := grammar.Of(file)
	if lang == "" || !want(lang) {
		return "", errorf(KindUnsupported, "%s has no grammar for %q", codemod, path.Base(file))
	}
	return lang, nil
}
