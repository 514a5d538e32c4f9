package patch

import (
	"bytes"
	"context"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"golang.org/x/net/html"

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

// customTags calls f with the name of each opening of a custom element in
// src, as written: "<" and a name of letters, digits and hyphens that starts
// with a letter and holds a hyphen (as the HTML standard requires of a custom
// element's). It is the cheap test that spares a tokenizer pass when a text
// has none; f returns false to stop.
func customTags(src []byte, f func(name []byte) bool) {
	for i := 0; i < len(src); i++ {
		j := bytes.IndexByte(src[i:], '<')
		if j < 0 {
			return
		}
		i += j + 1
		if i >= len(src) || !isLetter(src[i]) {
			continue
		}
		end, hyphen := i, false
		for end < len(src) && (isLetter(src[end]) || '0' <= src[end] && src[end] <= '9' || src[end] == '-') {
			hyphen = hyphen || src[end] == '-'
			end++
		}
		if hyphen && !f(src[i:end]) {
			return
		}
		i = end - 1
	}
}

func isLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// CustomTags are the custom element names content mentions after a "<",
// lowercased, without a parse: a superset of TemplateElements' tags.
func CustomTags(content string) []string {
	seen := map[string]bool{}
	var out []string
	customTags([]byte(content), func(name []byte) bool {
		if t := strings.ToLower(string(name)); !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
		return true
	})
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

// templateElements collects the start tags of one template text src whose
// tag is in tags, read with the HTML tokenizer (markup.go); lines count
// from its start. A text with no "<tag" of them is not tokenized.
func templateElements(ctx context.Context, src []byte, tags map[string]bool) ([]Element, error) {
	if !mentionsTag(src, tags) {
		return nil, nil
	}
	var out []Element
	line, lineAt := 1, uint(0) // the line of byte lineAt, counted forward
	err := scanMarkup(ctx, src, func(t markupToken) error {
		if t.kind != html.StartTagToken && t.kind != html.SelfClosingTagToken {
			return nil
		}
		name := tagName(src, t)
		tag := strings.ToLower(name.of(src))
		if !tags[tag] {
			return nil
		}
		line += bytes.Count(src[lineAt:t.start], []byte{'\n'})
		lineAt = t.start
		el := Element{Tag: tag, Attributes: []string{}, Line: line}
		var key strings.Builder
		key.WriteString(el.Tag)
		for _, a := range tagAttrs(src, t, name) {
			el.Attributes = append(el.Attributes, a.name.of(src))
			key.WriteByte(0)
			key.WriteString(strings.Join(strings.Fields(string(src[a.name.start:a.end])), " "))
		}
		el.key = key.String()
		out = append(out, el)
		return nil
	})
	return out, err
}

// mentionsTag says whether src holds "<" and one of tags (any case): a
// superset of the texts with such an element.
func mentionsTag(src []byte, tags map[string]bool) (found bool) {
	customTags(src, func(name []byte) bool {
		found = tags[strings.ToLower(string(name))]
		return !found
	})
	return found
}
