package patch

import (
	"bytes"
	"context"
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// Element is one custom element of a template as written: its tag, its
// attribute names exactly as spelled ([x], (x), [(x)], *x, #x or x) and
// the line (1-based, in the file) of its start tag.
type Element struct {
	Tag        string   `json:"tag"`
	Attributes []string `json:"attributes"`
	Line       int      `json:"line"`
	start      string   // the start tag's text, whitespace collapsed: what "unchanged" compares
}

// customTag finds the opening of a custom element (a tag name with a
// hyphen, as the HTML standard requires of one): the cheap test that spares
// a parse when a file has none.
var customTag = regexp.MustCompile(`<[a-zA-Z][a-zA-Z0-9]*-[a-zA-Z0-9-]*`)

// CustomTags are the custom element names content mentions after a "<",
// lowercased, without a parse: a superset of TemplateElements' tags.
func CustomTags(content string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range customTag.FindAllString(content, -1) {
		t := strings.ToLower(m[1:])
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// TemplateElements are the elements of file's templates (an HTML file, or
// the inline template: strings of a TypeScript file's @Component
// decorators) whose tag is in tags, in document order. Other files have
// none.
func TemplateElements(ctx context.Context, file, content string, tags map[string]bool) ([]Element, error) {
	if len(tags) == 0 {
		return nil, nil
	}
	src := []byte(content)
	switch languageOf(file) {
	case langHTML:
		return templateElements(ctx, src, tags)
	case langTypeScript:
		ranges, err := inlineTemplateRanges(ctx, src)
		if err != nil {
			return nil, err
		}
		var out []Element
		for _, r := range ranges {
			els, err := templateElements(ctx, src[r[0]:r[1]], tags)
			if err != nil {
				return nil, err
			}
			for i := range els {
				els[i].Line += bytes.Count(src[:r[0]], []byte{'\n'})
			}
			out = append(out, els...)
		}
		return out, nil
	}
	return nil, nil
}

// ChangedElements are the elements of after that before does not hold
// with the same start tag: the ones a patch introduced or changed. An
// element kept as it was, even moved, is not the patch's.
func ChangedElements(before, after []Element) []Element {
	had := map[string]int{}
	for _, e := range before {
		had[e.start]++
	}
	var out []Element
	for _, e := range after {
		if had[e.start] > 0 {
			had[e.start]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// inlineTemplateRanges are the byte ranges of the texts of the template:
// strings of @Component decorators.
func inlineTemplateRanges(ctx context.Context, src []byte) ([][2]uint, error) {
	tree, err := parse(ctx, langTypeScript, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	var out [][2]uint
	err = walk(ctx, tree.RootNode(), func(n *sitter.Node) bool {
		if n.Kind() != "pair" || pairKey(n, src) != "template" || !inComponentDecorator(n, src) {
			return true
		}
		if v := n.ChildByFieldName("value"); v != nil && (v.Kind() == "template_string" || v.Kind() == "string") {
			if start, end := v.StartByte()+1, v.EndByte()-1; end > start {
				out = append(out, [2]uint{start, end})
			}
		}
		return false
	})
	return out, err
}

// templateElements collects the elements of one template text src; lines
// count from its start. Only the start tags of the wanted tags are read; the walk
// does not descend into tags, attributes or text.
func templateElements(ctx context.Context, src []byte, tags map[string]bool) ([]Element, error) {
	tree, err := parse(ctx, langHTML, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	var out []Element
	line, lineAt := 1, uint(0) // the line of byte lineAt, counted forward as the walk goes
	err = walk(ctx, tree.RootNode(), func(n *sitter.Node) bool {
		switch n.Kind() {
		case "element", "document", "fragment":
			return true
		case "start_tag", "self_closing_tag":
		default:
			return false
		}
		name := childOfKind(n, "tag_name")
		if name == nil {
			return false
		}
		tag := strings.ToLower(text(name, src))
		if !tags[tag] {
			return false
		}
		line += bytes.Count(src[lineAt:n.StartByte()], []byte{'\n'})
		lineAt = n.StartByte()
		el := Element{Tag: tag, Attributes: []string{}, Line: line, start: strings.Join(strings.Fields(text(n, src)), " ")}
		for _, c := range namedChildren(n) {
			if c.Kind() != "attribute" {
				continue
			}
			if an := childOfKind(&c, "attribute_name"); an != nil {
				el.Attributes = append(el.Attributes, text(an, src))
			}
		}
		out = append(out, el)
		return false
	})
	return out, err
}
