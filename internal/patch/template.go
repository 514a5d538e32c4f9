package patch

import (
	"context"
	"fmt"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

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
// parsed with the HTML grammar: Angular @if/@for blocks are text to it, so
// they and everything else but the named tags and attributes stay byte for
// byte. In a .ts file the inline template: of a @Component is rewritten.
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
// offset base in the file.
func (rw tagRewrite) template(ctx context.Context, src []byte, base uint) ([]splice, error) {
	tree, err := parse(ctx, grammar.HTML, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	var sp []splice
	add := func(start, end uint, with string) {
		if start == end && with == "" {
			return // nothing to change (an empty value moved into an empty element)
		}
		sp = append(sp, splice{base + start, base + end, with})
	}
	// Each text occurrence of the tag's name is looked up in the tree by
	// moving one cursor to it, which also yields its element: a few cgo
	// calls per occurrence, where a walk costs several per node and
	// Node.Parent re-descends from the root on every call. Occurrences come
	// in document order, so the cursor climbs only out of the nodes that end
	// before the next one and descends from there: deep nesting costs no
	// more than flat markup.
	root := tree.RootNode()
	c := root.Walk()
	defer c.Close()
	var path []*sitter.Node // the cursor's nodes below the root, outermost first
	var ends []uint         // their end bytes
	var failure error
	err = eachOccurrence(ctx, string(src), rw.from, func(start, end uint) {
		if failure != nil {
			return
		}
		for len(path) > 0 && ends[len(ends)-1] <= start {
			c.GotoParent()
			path, ends = path[:len(path)-1], ends[:len(ends)-1]
		}
		for c.GotoFirstChildForByte(uint32(start)) != nil {
			n := c.Node()
			if n.StartByte() > start { // start is in a gap between children
				c.GotoParent()
				break
			}
			path, ends = append(path, n), append(ends, n.EndByte())
		}
		k := len(path)
		if k == 0 || path[k-1].StartByte() != start || path[k-1].EndByte() != end {
			return
		}
		switch path[k-1].Kind() {
		case "tag_name":
			// An end tag is rewritten with its element's start tag.
			if k >= 3 && (path[k-2].Kind() == "start_tag" || path[k-2].Kind() == "self_closing_tag") && path[k-3].Kind() == "element" {
				failure = rw.element(path[k-3], src, add)
			}
		case "erroneous_end_tag_name":
			// A closing tag without its opening one (an element the
			// parser closed early): still the tag's name.
			add(start, end, rw.to)
		}
	})
	if err != nil {
		return nil, err
	}
	if failure != nil {
		return nil, failure
	}
	return sp, nil
}

// element rewrites one element if it is a fromTag.
func (rw tagRewrite) element(n *sitter.Node, src []byte, add func(uint, uint, string)) error {
	// The tags are the element's first and last children; reading just
	// those two costs two cgo calls whatever the element holds.
	count := n.NamedChildCount()
	if count == 0 {
		return nil
	}
	open, closing := n.NamedChild(0), n.NamedChild(count-1)
	if open.Kind() != "start_tag" && open.Kind() != "self_closing_tag" {
		return nil
	}
	if closing.Kind() != "end_tag" {
		closing = nil
	}
	name := childOfKind(open, "tag_name")
	if name == nil || text(name, src) != rw.from {
		return nil
	}
	add(name.StartByte(), name.EndByte(), rw.to)
	if closing != nil {
		if cn := childOfKind(closing, "tag_name"); cn != nil && text(cn, src) == rw.from {
			add(cn.StartByte(), cn.EndByte(), rw.to)
		}
	}
	if len(rw.props) == 0 {
		return nil // no attribute changes: the tags were all
	}
	var children []string
	prevEnd := name.EndByte()
	for _, a := range namedChildren(open) {
		attr := &a
		if attr.Kind() != "attribute" {
			continue
		}
		start := prevEnd
		prevEnd = attr.EndByte()
		an := attr.NamedChild(0) // an attribute's name is its first child
		if an == nil || an.Kind() != "attribute_name" {
			continue
		}
		full := text(an, src)
		pre, inner, post := bindingParts(full)
		target, ok := rw.props[inner]
		if !ok || target == "" {
			continue
		}
		if target != "children" {
			at := an.StartByte() + uint(len(pre))
			add(at, at+uint(len(inner)), target)
			continue
		}
		content, err := childContent(pre, post, attrValue(attr, src))
		if err != nil {
			return errorf(KindConflict, "<%s %s>: %v", rw.from, full, err)
		}
		children = append(children, content)
		add(start, attr.EndByte(), "") // the attribute and the space before it
	}
	if len(children) == 0 {
		return nil
	}
	if len(children) > 1 {
		return errorf(KindConflict, "<%s>: two attributes map to children", rw.from)
	}
	if open.Kind() == "self_closing_tag" {
		// "/>" is the tag's last two bytes; the spaces before it go too.
		end, from := open.EndByte(), open.EndByte()-2
		for from > prevEnd && isSpace(src[from-1]) {
			from--
		}
		add(from, end, ">"+children[0]+"</"+rw.to+">")
		return nil
	}
	if closing == nil {
		return errorf(KindConflict, "<%s> has no closing tag to put its %s content before", rw.from, "children")
	}
	between := src[open.EndByte():closing.StartByte()]
	if strings.TrimSpace(string(between)) != "" {
		return errorf(KindConflict, "<%s> already has content; cannot move an attribute into it", rw.from)
	}
	add(open.EndByte(), closing.StartByte(), children[0])
	return nil
}

func childOfKind(n *sitter.Node, kind string) *sitter.Node {
	for _, c := range namedChildren(n) {
		if c.Kind() == kind {
			return &c
		}
	}
	return nil
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

// attrValue is an attribute's value without its quotes ("" for a bare
// attribute).
func attrValue(attr *sitter.Node, src []byte) string {
	if v := childOfKind(attr, "quoted_attribute_value"); v != nil {
		if inner := childOfKind(v, "attribute_value"); inner != nil {
			return text(inner, src)
		}
		return ""
	}
	if v := childOfKind(attr, "attribute_value"); v != nil {
		return text(v, src)
	}
	return ""
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
