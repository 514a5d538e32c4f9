package patch

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FuzzMarkupTags: the tokens partition any text, and each start tag's
// attributes as tagAttrs reads them are the ones the tokenizer itself
// reports for that tag (its names lowercased, later duplicates dropped):
// the spans the rewrite edits are the standard's attributes.
func FuzzMarkupTags(f *testing.F) {
	f.Add(`<a b=c d="e" f='g' h>x</a><br/><p/q=r =s t=>u</p>`)
	f.Add(`<sdf-button [x]="1" (y)="z()" [(o)]="p" *ngIf="q" #r></sdf-button>`)
	f.Add(`<a b='>'c=d/ e / =f>`)
	f.Add(`<script><a b=c></script><!-- <a b=c> --><textarea><a></textarea><noscript><a b></noscript>`)
	f.Add(`<?x <a b=c> </ 1 <a d> <![CDATA[ <a e> ]]> <svg><title><a f></title></svg>`)
	f.Add("<a\x00b=\"c\r\nd\" B=x>")
	f.Fuzz(func(t *testing.T, content string) {
		src := []byte(content)
		at := uint(0)
		err := scanMarkup(context.Background(), src, func(tok markupToken) error {
			if tok.start != at || tok.end < tok.start || tok.end > uint(len(src)) {
				t.Fatalf("token %+v after byte %d", tok, at)
			}
			at = tok.end
			if tok.kind != html.StartTagToken && tok.kind != html.SelfClosingTagToken {
				return nil
			}
			z := html.NewTokenizer(bytes.NewReader(src[tok.start:tok.end]))
			if z.Next() != tok.kind || len(z.Raw()) != int(tok.end-tok.start) {
				t.Fatalf("%q is not one %v token", src[tok.start:tok.end], tok.kind)
			}
			want, _ := z.TagName()
			name := tagName(src, tok)
			if got := tokenizerName(name.of(src)); got != string(want) {
				t.Fatalf("tag name %q, the tokenizer's %q", got, want)
			}
			var keys []string
			seen := map[string]bool{}
			for _, a := range tagAttrs(src, tok, name) {
				if a.name.start < name.end || a.end > tok.end || a.value.end > a.end || a.value.start < a.name.end {
					t.Fatalf("attribute %+v outside its tag %+v", a, tok)
				}
				if k := tokenizerName(a.name.of(src)); !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
			var theirs []string
			for more := true; more; {
				var k []byte
				k, _, more = z.TagAttr()
				if k != nil {
					theirs = append(theirs, string(k))
				}
			}
			if strings.Join(keys, "\x00") != strings.Join(theirs, "\x00") {
				t.Fatalf("attributes %q, the tokenizer's %q in %q", keys, theirs, src[tok.start:tok.end])
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if at != uint(len(src)) && !strings.Contains(content[at:], "<") {
			t.Fatalf("the tokens end at %d of %d with no tag cut off", at, len(src))
		}
	})
}

// tokenizerName is a name as the tokenizer reports it: lowercased, a NUL
// replaced.
func tokenizerName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return strings.ReplaceAll(string(b), "\x00", "\ufffd")
}
