package patch

import (
	"context"
	"strings"

	"github.com/mcpc/mcpc/internal/grammar"
)

// renameIdentifier renames an identifier, params {from, to}: every leaf of
// the syntax tree that is an identifier of some sort (identifier,
// property_identifier, type_identifier, field_identifier,
// shorthand_property_identifier, package_identifier, Go's label_name ...)
// and spells from. String contents and comments are other node kinds, so
// they are never touched. The text occurrences of from are found first and
// each is looked up in one tree of the original content, a few cgo calls
// per occurrence instead of several per node; the rename never sees its
// own output, so from == to or a to containing from cannot loop.
func renameIdentifier(ctx context.Context, in Input) ([]splice, error) {
	from, _ := in.Params["from"].(string)
	to, _ := in.Params["to"].(string)
	if from == to {
		return nil, errorf(KindNoChange, "from and to are both %q; the rename changes nothing", from)
	}
	lang, err := requireLang("rename_identifier_in_file", in.File, func(l string) bool { return l != grammar.HTML })
	if err != nil {
		return nil, err
	}
	var sp []splice
	if strings.Contains(in.Content, from) {
		tree, err := parse(ctx, lang, []byte(in.Content))
		if err != nil {
			return nil, err
		}
		defer tree.Close()
		root := tree.RootNode()
		// The splices stop once the result would pass the limit: each
		// grows it by the same amount, and checkSize then refuses.
		limit := in.MaxOutputBytes
		if limit <= 0 {
			limit = DefaultMaxOutputBytes
		}
		size := len(in.Content)
		err = eachOccurrence(ctx, in.Content, from, func(start, end uint) {
			if size > limit {
				return
			}
			if n := root.DescendantForByteRange(start, end); n != nil && n.StartByte() == start && n.EndByte() == end &&
				n.ChildCount() == 0 && isIdentifierKind(n.Kind()) {
				sp = append(sp, splice{start, end, to})
				size += len(to) - len(from)
			}
		})
		if err != nil {
			return nil, err
		}
	}
	if len(sp) == 0 {
		return nil, errorf(KindNoMatch, "identifier %q does not occur outside strings and comments", from)
	}
	return sp, nil
}

// isIdentifierKind says whether a leaf kind names something in code.
func isIdentifierKind(kind string) bool {
	return strings.HasSuffix(kind, "identifier") || kind == "label_name"
}

// eachOccurrence calls f with the byte range of every occurrence of needle
// in s, overlapping ones included (a match that is not a token may hide
// one that is), checking ctx as it goes.
func eachOccurrence(ctx context.Context, s, needle string, f func(start, end uint)) error {
	if needle == "" {
		return nil
	}
	for at, n := 0, 0; ; n++ {
		if n%512 == 511 && ctx.Err() != nil {
			return ctx.Err()
		}
		i := strings.Index(s[at:], needle)
		if i < 0 {
			return nil
		}
		start := at + i
		f(uint(start), uint(start+len(needle)))
		at = start + 1
	}
}
