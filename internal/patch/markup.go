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
// knows what tree-sitter's grammar approximates: comments, raw text and
// attribute values are not markup, so a "<tag" inside them is never taken
// for an element (scanMarkup follows Angular's parser where it differs).

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
// its byte range: the tokens partition src. It checks ctx every few hundred
// tokens; src is finite and the tokenizer linear, so the scan ends either
// way.
//
// The tokenizer reads as a browser's does; an Angular template is read by
// Angular's own parser, which differs where it matters to a contract check
// (an element Angular instantiates must never be hidden from it) and to a
// rewrite. So the scan follows Angular where the two part: only <script>,
// <style>, <textarea> and <title> hold raw text (<title> not inside <svg>),
// where the standard also makes raw text of <iframe>, <noembed>,
// <noframes>, <noscript>, <plaintext> and <xmp>; <![CDATA[...]]> is text to
// its end; and "<?" or "</" before a character that starts no name is text,
// not the start of a bogus comment running to the next ">" (which could
// swallow a tag Angular reads).
func scanMarkup(ctx context.Context, src []byte, visit func(markupToken) error) error {
	at := uint(0)
	z := newTokenizer(src)
	svg := 0 // open <svg> elements
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
		raw := z.Raw()
		if tt == html.CommentToken && bogusOpening(raw) {
			// "<?" or "</": text to Angular; read on after it.
			if err := visit(markupToken{kind: html.TextToken, start: at, end: at + 2}); err != nil {
				return err
			}
			at += 2
			z = newTokenizer(src[at:])
			continue
		}
		end := at + uint(len(raw))
		switch tt {
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "svg":
				if tt == html.StartTagToken {
					svg++
				} else if svg > 0 {
					svg--
				}
			case "iframe", "noembed", "noframes", "noscript", "plaintext", "xmp":
				z.NextIsNotRawText()
			case "title":
				if svg > 0 {
					z.NextIsNotRawText()
				}
			}
		}
		if err := visit(markupToken{kind: tt, start: at, end: end}); err != nil {
			return err
		}
		at = end
	}
}

func newTokenizer(src []byte) *html.Tokenizer {
	z := html.NewTokenizer(bytes.NewReader(src))
	z.AllowCDATA(true)
	return z
}

// bogusOpening says whether a comment token is one the standard makes of
// "<?" or of "</" before a character that starts no name: not a comment to
// Angular's parser.
func bogusOpening(raw []byte) bool {
	if len(raw) < 3 || raw[0] != '<' {
		return false
	}
	switch raw[1] {
	case '?':
		return true
	case '/':
		return raw[2] != '>' && !isLetter(raw[2])
	}
	return false
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
