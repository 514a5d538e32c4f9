package patch

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"
	"golang.org/x/net/html"

	"github.com/mcpc/mcpc/internal/grammar"
)

// tagRewrite is one rewrite_template_tag request.
type tagRewrite struct {
	from, to string
	props    map[string]string // old attribute/input name -> new name or "children"
}

// rewriteTemplateTag rewrites a custom element, params {fromTag, toTag,
// propMappings} (from and to are older spellings of fromTag and toTag):
//   - the opening, self-closing and closing tags named fromTag get toTag;
//   - each attribute of such an element whose name, or name inside Angular
//     binding syntax ([x], (x), [(x)]), is a key of propMappings is renamed
//     to its value, the brackets kept;
//   - a mapping to "children" moves the attribute into the element's
//     content: a static value as text (< escaped), a [x] binding as an
//     {{ interpolation }}; the element must be empty or self-closing (then
//     it gets a closing tag), an event binding cannot move.
//
// Without a propMappings param the mappings come from the tag's
// MigrationRule when the caller has a lookup (Input.Rules). Templates are
// read with the HTML tokenizer (markup.go): Angular @if/@for blocks are text
// to it, so they and everything else but the named tags and attributes stay
// byte for byte. In a .ts file the inline template: of a @Component is
// rewritten.
func rewriteTemplateTag(ctx context.Context, in Input) ([]splice, error) {
	rw := tagRewrite{from: stringParam(in.Params, "fromTag", "from"), to: stringParam(in.Params, "toTag", "to")}
	if rw.from == rw.to {
		return nil, errorf(KindNoChange, "fromTag and toTag are both %q; nothing changes", rw.from)
	}
	if m, ok := in.Params["propMappings"].(map[string]any); ok {
		rw.props = map[string]string{}
		for k, v := range m {
			rw.props[k], _ = v.(string)
		}
	} else if in.Rules != nil {
		if rule, ok := in.Rules(rw.from); ok {
			rw.props = rule.PropMappings
		}
	}
	lang, err := requireLang("rewrite_template_tag", in.File, func(l string) bool { return l == grammar.HTML || l == grammar.TypeScript })
	if err != nil {
		return nil, err
	}
	if !strings.Contains(in.Content, rw.from) {
		return nil, errorf(KindNoMatch, "tag <%s> does not occur", rw.from)
	}
	src := []byte(in.Content)
	var sp []splice
	if lang == grammar.HTML {
		sp, err = rw.template(ctx, src, 0)
	} else {
		sp, err = rw.inlineTemplates(ctx, src)
	}
	if err != nil {
		return nil, err
	}
	if len(sp) == 0 {
		return nil, errorf(KindNoMatch, "tag <%s> does not occur", rw.from)
	}
	return sp, nil
}

func stringParam(params map[string]any, names ...string) string {
	for _, n := range names {
		if s, ok := params[n].(string); ok {
			return s
		}
	}
	return ""
}

// inlineTemplates rewrites the template: strings of @Component decorators.
func (rw tagRewrite) inlineTemplates(ctx context.Context, src []byte) ([]splice, error) {
	tree, err := parse(ctx, grammar.TypeScript, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	var literals []*sitter.Node
	err = walk(ctx, tree.RootNode(), func(n *sitter.Node) bool {
		if n.Kind() != "pair" || pairKey(n, src) != "template" || !inComponentDecorator(n, src) {
			return true
		}
		if v := n.ChildByFieldName("value"); v != nil && (v.Kind() == "template_string" || v.Kind() == "string") {
			literals = append(literals, v)
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	var all []splice
	for _, lit := range literals {
		start, end := lit.StartByte()+1, lit.EndByte()-1
		if end <= start {
			continue
		}
		sp, err := rw.template(ctx, src[start:end], start)
		if err != nil {
			return nil, err
		}
		all = append(all, sp...)
	}
	return all, nil
}

// inComponentDecorator says whether an object pair is in the metadata
// object of @Component({...}).
func inComponentDecorator(pair *sitter.Node, src []byte) bool {
	obj := pair.Parent()
	if obj == nil || obj.Kind() != "object" {
		return false
	}
	args := obj.Parent()
	if args == nil || args.Kind() != "arguments" {
		return false
	}
	call := args.Parent()
	if call == nil || call.Kind() != "call_expression" {
		return false
	}
	fn := call.ChildByFieldName("function")
	dec := call.Parent()
	return fn != nil && text(fn, src) == "Component" && dec != nil && dec.Kind() == "decorator"
}

// template returns the splices of one template whose text is src, at
// offset base in the file. It reads the template's tags in one pass of the
// tokenizer (see markup.go): every tag named fromTag, start, self-closing or
// end (a stray end tag too), is renamed; a start tag's attributes are
// renamed or moved as propMappings says.
func (rw tagRewrite) template(ctx context.Context, src []byte, base uint) ([]splice, error) {
	var sp []splice
	add := func(start, end uint, with string) {
		if start == end && with == "" {
			return // nothing to change (an empty value moved into an empty element)
		}
		sp = append(sp, splice{base + start, base + end, with})
	}
	// open is a start tag whose element must be empty, to take an
	// attribute moved into its content: the tokens after it are checked
	// until its end tag.
	var open *childMove
	err := scanMarkup(ctx, src, func(t markupToken) error {
		if open != nil {
			done, err := open.next(src, t, add)
			if err != nil {
				return err
			}
			if done {
				open = nil
			}
		}
		if !t.isTag() {
			return nil
		}
		name := tagName(src, t)
		if string(src[name.start:name.end]) != rw.from {
			return nil
		}
		add(name.start, name.end, rw.to)
		if t.kind == html.EndTagToken {
			return nil
		}
		mv, err := rw.attributes(src, t, name, add)
		if mv != nil {
			open = mv
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if open != nil {
		return nil, errorf(KindConflict, "<%s> has no closing tag to put its %s content before", rw.from, "children")
	}
	return sp, nil
}

// childMove is an attribute's value on its way into the content of the
// element whose start tag held it.
type childMove struct {
	from    string // the element's tag
	content string // what the content becomes
	at      uint   // the content's start: the start tag's end
}

// next looks at the token after the start tag (and after blank text): the
// element's end tag takes the content before it; anything else is content
// already there.
func (m *childMove) next(src []byte, t markupToken, add func(uint, uint, string)) (done bool, err error) {
	switch {
	case t.kind == html.TextToken && len(bytes.TrimSpace(src[t.start:t.end])) == 0:
		return false, nil
	case t.kind == html.EndTagToken && strings.EqualFold(tagName(src, t).of(src), m.from):
		add(m.at, t.start, m.content)
		return true, nil
	case t.kind == html.EndTagToken:
		return true, errorf(KindConflict, "<%s> has no closing tag to put its %s content before", m.from, "children")
	}
	return true, errorf(KindConflict, "<%s> already has content; cannot move an attribute into it", m.from)
}

// attributes renames the start tag t's attributes that propMappings names
// and moves the one it maps to "children": returned, for a start tag, to be
// placed before its end tag.
func (rw tagRewrite) attributes(src []byte, t markupToken, name span, add func(uint, uint, string)) (*childMove, error) {
	if len(rw.props) == 0 {
		return nil, nil // no attribute changes: the tags were all
	}
	var children []string
	prevEnd := name.end
	for _, a := range tagAttrs(src, t, name) {
		start := prevEnd
		prevEnd = a.end
		full := a.name.of(src)
		pre, inner, post := bindingParts(full)
		target, ok := rw.props[inner]
		if !ok || target == "" {
			continue
		}
		if target != "children" {
			at := a.name.start + uint(len(pre))
			add(at, at+uint(len(inner)), target)
			continue
		}
		content, err := childContent(pre, post, a.value.of(src))
		if err != nil {
			return nil, errorf(KindConflict, "<%s %s>: %v", rw.from, full, err)
		}
		if !isSpace(src[a.name.start-1]) {
			return nil, errorf(KindConflict, "<%s %s>: the attribute is not separated by a space, so it is not moved", rw.from, full)
		}
		// The attribute and the spaces before it, back to the previous
		// attribute or a "/" between them.
		from := a.name.start
		for from > start && isSpace(src[from-1]) {
			from--
		}
		children = append(children, content)
		add(from, a.end, "")
	}
	if len(children) == 0 {
		return nil, nil
	}
	if len(children) > 1 {
		return nil, errorf(KindConflict, "<%s>: two attributes map to children", rw.from)
	}
	if t.kind == html.SelfClosingTagToken {
		// "/>" is the tag's last two bytes; the spaces before it go too.
		end, from := t.end, t.end-2
		for from > prevEnd && isSpace(src[from-1]) {
			from--
		}
		add(from, end, ">"+children[0]+"</"+rw.to+">")
		return nil, nil
	}
	return &childMove{from: rw.from, content: children[0], at: t.end}, nil
}

// bindingParts splits an attribute name into Angular binding syntax and the
// name inside it: [(x)], [x], (x) or a plain x.
func bindingParts(name string) (pre, inner, post string) {
	for _, b := range [][2]string{{"[(", ")]"}, {"[", "]"}, {"(", ")"}} {
		if len(name) > len(b[0])+len(b[1]) && strings.HasPrefix(name, b[0]) && strings.HasSuffix(name, b[1]) {
			return b[0], name[len(b[0]) : len(name)-len(b[1])], b[1]
		}
	}
	return "", name, ""
}

// childContent is what an attribute moved to children becomes.
func childContent(pre, post, value string) (string, error) {
	switch pre {
	case "":
		return strings.ReplaceAll(value, "<", "&lt;"), nil
	case "[":
		return "{{ " + value + " }}", nil
	}
	return "", fmt.Errorf("a %sbinding%s cannot become content", pre, post)
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' }
