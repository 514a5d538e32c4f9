package indexer

import (
	"sort"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// templateExtractor reads HTML and Angular templates with the HTML grammar.
// Angular's @if/@for blocks are plain text to that grammar, and its error
// recovery keeps the elements and bindings inside them, which is all the
// usage facts need.
type templateExtractor struct {
	syntax
	lineOffset int // for inline templates: the line their string starts on, minus one
}

// maxAttrSummary bounds the compressed attribute summary of a usage.
const maxAttrSummary = 160

func (t *templateExtractor) run(root *sitter.Node, lineOffset int) {
	t.lineOffset = lineOffset
	t.visit(root, "", 0) // the root is a document, never an element
}

// visit records n's usage if it is an element (kind is n's kind, which its
// parent's listing gave) and walks its children; an element's children
// are listed once for both.
func (t *templateExtractor) visit(n *sitter.Node, kind string, depth int) {
	children := kids(n)
	inElement := kind == "element"
	if inElement {
		t.element(n, children)
	}
	if depth > 256 {
		return
	}
	for _, c := range children {
		switch c.Kind {
		case "element":
			t.visit(&c.Node, c.Kind, depth+1)
		case "start_tag", "self_closing_tag":
			// Only reached for tags the grammar could not wrap in an element
			// (inside an ERROR node): the usage still counts.
			if !inElement {
				t.usage(&c.Node, &c.Node)
			}
		case "end_tag", "text", "comment", "doctype", "script_element", "style_element":
		default:
			t.visit(&c.Node, c.Kind, depth+1)
		}
	}
}

// element records the usage of el from its start tag, the first of its
// children that is one.
func (t *templateExtractor) element(el *sitter.Node, children []kid) {
	for _, c := range children {
		if c.Kind == "start_tag" || c.Kind == "self_closing_tag" {
			t.usage(&c.Node, el)
			return
		}
	}
}

// usage records a custom element from its start tag; span gives the lines.
func (t *templateExtractor) usage(tag, span *sitter.Node) {
	var name string
	var attrs []string
	for _, c := range kids(tag) {
		switch c.Kind {
		case "tag_name":
			name = strings.ToLower(t.text(&c.Node))
		case "attribute":
			for _, a := range kids(&c.Node) {
				if a.Kind == "attribute_name" {
					attrs = append(attrs, t.text(&a.Node))
				}
			}
		}
	}
	if !strings.Contains(name, "-") {
		return // only custom elements are usage facts
	}
	t.file.Usages = append(t.file.Usages, Usage{
		Tag:       name,
		File:      t.file.Path,
		StartLine: startLine(span) + t.lineOffset,
		EndLine:   endLine(span) + t.lineOffset,
		Attrs:     summariseAttrs(attrs),
		Anchor:    anchorOf(t.file.Path),
	})
	t.addRef("template", "selector", name, name)
}

// summariseAttrs keeps each attribute or binding name once, sorted, within
// maxAttrSummary bytes: enough to see which inputs and outputs a usage sets.
func summariseAttrs(attrs []string) string {
	sort.Strings(attrs)
	var b strings.Builder
	prev := ""
	for _, a := range attrs {
		if a == prev {
			continue
		}
		prev = a
		if b.Len()+len(a)+1 > maxAttrSummary {
			b.WriteString(" …")
			break
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a)
	}
	return b.String()
}
