package patch

import (
	"bytes"
	"context"
	"regexp"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/grammar"
)

// Element is one custom element of a template as written: its tag, its
// attribute names exactly as spelled ([x], (x), [(x)], *x, #x or x) and
// the line (1-based, in the file) of its start tag.
type Element struct {
	Tag        string   `json:"tag"`
	Attributes []string `json:"attributes"`
	Line       int      `json:"line"`
	key        string   // the tag and its attributes' texts: what "unchanged" compares
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
	switch grammar.Of(file) {
	case grammar.HTML:
		return templateElements(ctx, src, tags)
	case grammar.TypeScript:
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
// with the same tag and attributes: the ones a patch introduced or changed. An
// element kept as it was, even moved, is not the patch's.
func ChangedElements(before, after []Element) []Element {
	had := map[string]int{}
	for _, e := range before {
		had[e.key]++
	}
	var out []Element
	for _, e := range after {
		if had[e.key] > 0 {
			had[e.key]--
			continue
		}
		out = append(out, e)
	}
	return out
}

// inlineTemplateRanges are the byte ranges of the texts of the template:
// strings of @Component decorators.
func inlineTemplateRanges(ctx context.Context, src []byte) ([][2]uint, error) {
	tree, err := parse(ctx, grammar.TypeScript, src)
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

// templateElements collects the elements of one template text src whose
// tag is in tags; lines count from its start. Each "<tag" the text holds
// is looked up in the tree by moving one cursor to it, as rewrite_template_tag
// does: a few cgo calls per element rather than several per node of a walk.
func templateElements(ctx context.Context, src []byte, tags map[string]bool) ([]Element, error) {
	var starts []uint // the tag names' offsets, in document order
	for _, m := range customTag.FindAllIndex(src, -1) {
		if tags[strings.ToLower(string(src[m[0]+1:m[1]]))] {
			starts = append(starts, uint(m[0]+1))
		}
	}
	if len(starts) == 0 {
		return nil, nil
	}
	tree, err := parse(ctx, grammar.HTML, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	c := tree.RootNode().Walk()
	defer c.Close()
	var out []Element
	var path []*sitter.Node // the cursor's nodes below the root, outermost first
	var ends []uint
	line, lineAt := 1, uint(0) // the line of byte lineAt, counted forward
	for i, start := range starts {
		if i%64 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		for len(path) > 0 && ends[len(ends)-1] <= start {
			c.GotoParent()
			path, ends = path[:len(path)-1], ends[:len(ends)-1]
		}
		for c.GotoFirstChildForByte(uint32(start)) != nil {
			n := c.Node()
			if n.StartByte() > start {
				c.GotoParent()
				break
			}
			path, ends = append(path, n), append(ends, n.EndByte())
		}
		k := len(path)
		if k < 2 || path[k-1].Kind() != "tag_name" || path[k-1].StartByte() != start {
			continue // inside text, a comment or an attribute value
		}
		st := path[k-2]
		if st.Kind() != "start_tag" && st.Kind() != "self_closing_tag" {
			continue
		}
		line += bytes.Count(src[lineAt:start], []byte{'\n'})
		lineAt = start
		el := Element{Tag: strings.ToLower(text(path[k-1], src)), Attributes: []string{}, Line: line}
		var key strings.Builder
		key.WriteString(el.Tag)
		for _, a := range namedChildren(st) {
			if a.Kind() != "attribute" {
				continue
			}
			if an := childOfKind(&a, "attribute_name"); an != nil {
				el.Attributes = append(el.Attributes, text(an, src))
				key.WriteByte(0)
				key.WriteString(strings.Join(strings.Fields(text(&a, src)), " "))
			}
		}
		el.key = key.String()
		out = append(out, el)
	}
	return out, nil
}
