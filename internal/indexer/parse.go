package indexer

import (
	"path"
	"sort"
	"strconv"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/grammar"
)

// parserSet holds one parser per language for one worker goroutine: a
// tree-sitter parser is not safe for concurrent use.
type parserSet struct {
	byLang map[string]*sitter.Parser
}

func newParserSet() *parserSet { return &parserSet{byLang: map[string]*sitter.Parser{}} }

func (ps *parserSet) parse(lang string, src []byte) *sitter.Tree {
	p := ps.byLang[lang]
	if p == nil {
		p = sitter.NewParser()
		if err := p.SetLanguage(grammar.Languages[lang]); err != nil {
			return nil
		}
		ps.byLang[lang] = p
	}
	return parseBytes(p, src)
}

func (ps *parserSet) close() {
	for _, p := range ps.byLang {
		p.Close()
	}
}

// extract fills f's symbols, references, usages and parse error from src.
func extract(ps *parserSet, f *fileFacts, src []byte) {
	if path.Base(f.Path) == "go.mod" {
		goModule(f, src)
		return
	}
	if f.Lang == "" {
		return
	}
	tree := ps.parse(f.Lang, src)
	if tree == nil {
		f.ParseError = "parser unavailable"
		return
	}
	defer tree.Close()
	root := tree.RootNode()
	sx := syntax{src: src, file: f}
	switch f.Lang {
	case grammar.TypeScript, grammar.TSX, grammar.JavaScript:
		(&scriptExtractor{syntax: sx, parsers: ps}).run(root)
	case grammar.HTML:
		(&templateExtractor{syntax: sx}).run(root, 0)
	case grammar.Go:
		(&goExtractor{syntax: sx}).run(root)
	case grammar.Python:
		(&pythonExtractor{syntax: sx}).run(root)
	case grammar.Java:
		(&javaExtractor{syntax: sx}).run(root)
	}
	if root.HasError() {
		// A lone MISSING token is a recovery the grammar made (the pinned
		// TypeScript grammar inserts one in generic tagged templates such
		// as styled.div<Props>`...`); the facts are complete, so only real
		// ERROR nodes, and any template error, count as parse failures.
		if msg, hard := describeError(root); hard || f.Lang == grammar.HTML {
			f.ParseError = msg
		}
	}
	f.Refs = dedupeRefs(f.Refs)
	// Facts gathered from maps come out in random order; keep stored
	// output deterministic.
	sort.SliceStable(f.Symbols, func(i, j int) bool {
		a, b := f.Symbols[i], f.Symbols[j]
		if a.StartLine != b.StartLine {
			return a.StartLine < b.StartLine
		}
		return a.Name < b.Name
	})
	sort.SliceStable(f.Refs, func(i, j int) bool {
		a, b := f.Refs[i], f.Refs[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Target < b.Target
	})
}

// syntax bundles the source and the facts being filled, with small helpers
// every extractor uses.
type syntax struct {
	src  []byte
	file *fileFacts
}

func (s syntax) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	start, end := byteRange(n)
	return string(s.src[start:end])
}

func startLine(n *sitter.Node) int { return int(n.StartPosition().Row) + 1 }
func endLine(n *sitter.Node) int   { return int(n.EndPosition().Row) + 1 }

func (s syntax) addSymbol(name, kind string, n *sitter.Node, exported bool, container string) {
	if name == "" {
		return
	}
	s.file.Symbols = append(s.file.Symbols, Symbol{
		Name: name, Kind: kind, File: s.file.Path,
		StartLine: startLine(n), EndLine: endLine(n),
		Exported: exported, Container: container,
	})
}

func (s syntax) addRef(kind, by, target, symbol string) {
	if target == "" {
		return
	}
	s.file.Refs = append(s.file.Refs, rawRef{Kind: kind, By: by, Target: target, Symbol: symbol})
}

// unquote strips the quotes of a string or template-string literal.
func unquote(s string) string {
	if len(s) >= 2 {
		switch s[0] {
		case '"', '\'', '`':
			if s[len(s)-1] == s[0] {
				return s[1 : len(s)-1]
			}
		}
	}
	return s
}

// describeError locates the first syntax error for the Problem message.
func describeError(root *sitter.Node) (string, bool) {
	var found, missing *sitter.Node
	var visit func(n *sitter.Node, depth int)
	visit = func(n *sitter.Node, depth int) {
		if found != nil || depth > 64 {
			return
		}
		if n.IsError() {
			found = n
			return
		}
		if n.IsMissing() && missing == nil {
			missing = n
		}
		if !n.HasError() {
			return
		}
		for i := uint(0); i < n.ChildCount(); i++ {
			visit(n.Child(i), depth+1)
		}
	}
	visit(root, 0)
	if found != nil {
		return "syntax error at line " + strconv.Itoa(startLine(found)), true
	}
	if missing != nil {
		return "missing " + kindOf(missing) + " at line " + strconv.Itoa(startLine(missing)), false
	}
	return "syntax error", true
}

func dedupeRefs(refs []rawRef) []rawRef {
	seen := make(map[rawRef]bool, len(refs))
	out := refs[:0]
	for _, r := range refs {
		if seen[r] {
			continue
		}
		seen[r] = true
		out = append(out, r)
	}
	return out
}

// anchorOf is a file's domain anchor: its folder path up to three levels.
func anchorOf(rel string) string {
	dir := path.Dir(rel)
	if dir == "." {
		return ""
	}
	parts := strings.Split(dir, "/")
	if len(parts) > 3 {
		parts = parts[:3]
	}
	return strings.Join(parts, "/")
}
