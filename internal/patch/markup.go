package patch

import (
	"bytes"
	"context"
	"errors"
	"io"

	"golang.org/x/net/html"
)

// Templates (rewrite_template_tag and the contract check's TemplateElements)
// are read with golang.org/x/net/html's tokenizer, the WHATWG tokenizer, not
// with the tree-sitter HTML grammar the other codemods' languages use: on a
// 2,000-line template (90 KB) the tree-sitter parse alone costs about 7.4 ms
// of CPU (BenchmarkRewriteTemplateTag2000Lines before this change: 10.6 ms,
// and the contract check parsed twice more), over the 5 ms a whole patch may
// take; the tokenizer reads the same file in about 0.35 ms. Neither needs a
// tree: a rewrite renames tags and attributes where they are written, and
// a contract checks the attributes of each start tag. The tokenizer also
// knows what tree-sitter's grammar approximates: comments, raw text
// (<script>, <style>, <textarea>, <title>...) and attribute values are not
// markup, so a "<tag" inside them is never taken for an element.

// markupTag is one tag of a template: a start, self-closing or end tag.
type markupTag struct {
	kind       html.TokenType
	start, end uint // the tag's bytes, "<" to ">"
	name       span
}

// span is a byte range [start, end).
type span struct{ start, end uint }

// markupAttr is one attribute of a start tag as written.
type markupAttr struct {
	name  span
	value span // without quotes; empty (start == end) for a bare attribute
	end   uint // the attribute's end, after a closing quote
}

// markupToken is one token of a template: a tag (kind StartTagToken,
// SelfClosingTagToken or EndTagToken), text, a comment or a doctype.
type markupToken struct {
	kind       html.TokenType
	start, end uint
}

// scanMarkup calls visit with every token of src in document order, with
// its byte range: the tokenizer's raw tokens partition src. It checks ctx
// every few hundred tokens; src is finite and the tokenizer linear, so the
// scan ends either way.
func scanMarkup(ctx context.Context, src []byte, visit func(markupToken) error) error {
	z := html.NewTokenizer(bytes.NewReader(src))
	at := uint(0)
	for n := 0; ; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return errorf(KindParseFailed, "the template could not be read: %v", err)
			}
			// A tag cut off by the end of the text is no tag (the
			// standard drops it), and its bytes are the last ones.
			return nil
		}
		end := at + uint(len(z.Raw()))
		if err := visit(markupToken{kind: tt, start: at, end: end}); err != nil {
			return err
		}
		at = end
	}
}

// isTag says whether a token is a tag with a name.
func (t markupToken) isTag() bool {
	return t.kind == html.StartTagToken || t.kind == html.SelfClosingTagToken || t.kind == html.EndTagToken
}

// tagName is the name of the tag token t of src, as written: the bytes
// after "<" or "</" up to a space, "/" or ">".
func tagName(src []byte, t markupToken) span {
	from := t.start + 1
	if t.kind == html.EndTagToken {
		from++
	}
	i := from
	for i < t.end && !isSpace(src[i]) && src[i] != '/' && src[i] != '>' {
		i++
	}
	return span{from, i}
}

// tagAttrs are the attributes of the start or self-closing tag t of src,
// after its name, read as the standard's attribute states read them (which
// is what the tokenizer did to find the tag's end): a name runs to a space,
// "/", ">" or "=" (a leading "=" belongs to it); a value is quoted, or runs
// to a space or ">"; a "/" between attributes separates them. Duplicates
// are kept as written.
func tagAttrs(src []byte, t markupToken, name span) []markupAttr {
	var out []markupAttr
	end := t.end - 1 // the closing ">"
	i := name.end
	skip := func() {
		for i < end && isSpace(src[i]) {
			i++
		}
	}
	skip()
	for i < end {
		a := markupAttr{name: span{i, i}}
		for i < end {
			c := src[i]
			if c == '=' && i == a.name.start {
				i++
				continue
			}
			if isSpace(c) || c == '/' || c == '>' || c == '=' {
				break
			}
			i++
		}
		a.name.end = i
		a.value = span{i, i}
		a.end = i
		skip()
		switch {
		case i < end && src[i] == '/':
			i++
		case i < end && src[i] == '=':
			i++
			skip()
			switch {
			case i >= end: // "a=>": no value
			case src[i] == '"' || src[i] == '\'':
				q := src[i]
				i++
				a.value.start = i
				for i < end && src[i] != q {
					i++
				}
				a.value.end = i
				if i < end {
					i++
				}
				a.end = i
			default:
				a.value.start = i
				for i < end && !isSpace(src[i]) {
					i++
				}
				a.value.end = i
				a.end = i
			}
		}
		if a.name.end > a.name.start {
			out = append(out, a)
		}
		skip()
	}
	return out
}

// text of a span of src.
func (s span) of(src []byte) string { return string(src[s.start:s.end]) }
