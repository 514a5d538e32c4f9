package patch

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	sitter "github.com/tree-sitter/go-tree-sitter"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/grammar"
)

// extensionsOf are the file extensions each grammar parses (languageOf's
// inverse).
var extensionsOf = map[string][]string{
	grammar.TypeScript: {".ts", ".mts", ".cts"},
	grammar.TSX:        {".tsx"},
	grammar.JavaScript: {".js", ".jsx", ".mjs", ".cjs"},
	grammar.HTML:       {".html", ".htm"},
	grammar.Go:         {".go"},
	grammar.Python:     {".py", ".pyi"},
	grammar.Java:       {".java"},
}

// queryCodemod is a custom codemod declared as a tree-sitter query: in
// every match, the node of its capture is replaced by the template, where
// ${name} is the text of the same match's capture name.
type queryCodemod struct {
	lang    string
	query   *sitter.Query // immutable once compiled; each run has its own cursor
	capture uint
	parts   []templatePart
}

// templatePart is literal text, or a capture's text when isCapture.
type templatePart struct {
	text      string
	capture   uint
	isCapture bool
}

var captureRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_.-]*)\}`)

// newQueryCodemod compiles a configured query codemod; every error is one
// a person fixes in config.
func newQueryCodemod(cm config.CustomCodemod) (*queryCodemod, error) {
	grammar, ok := grammar.Languages[cm.Language]
	if !ok {
		return nil, fmt.Errorf("language %q is not one of typescript, tsx, javascript, html, go, python, java", cm.Language)
	}
	q, qerr := sitter.NewQuery(grammar, cm.Query)
	if qerr != nil {
		return nil, fmt.Errorf("query: %s", qerr.Error())
	}
	names := q.CaptureNames()
	capture, ok := q.CaptureIndexForName(cm.Capture)
	if !ok {
		q.Close()
		return nil, fmt.Errorf("capture %q is not in the query (it has %s)", cm.Capture, strings.Join(names, ", "))
	}
	qc := &queryCodemod{lang: cm.Language, query: q, capture: capture}
	at := 0
	for _, m := range captureRef.FindAllStringSubmatchIndex(cm.Replace, -1) {
		name := cm.Replace[m[2]:m[3]]
		i, ok := q.CaptureIndexForName(name)
		if !ok {
			q.Close()
			return nil, fmt.Errorf("replace names ${%s}, which is not a capture of the query", name)
		}
		qc.parts = append(qc.parts, templatePart{text: cm.Replace[at:m[0]]}, templatePart{capture: i, isCapture: true})
		at = m[1]
	}
	qc.parts = append(qc.parts, templatePart{text: cm.Replace[at:]})
	return qc, nil
}

func (qc *queryCodemod) splices(ctx context.Context, in Input) ([]splice, error) {
	if grammar.Of(in.File) != qc.lang {
		return nil, errorf(KindUnsupported, "this codemod's query is for %s files, not %q", qc.lang, in.File)
	}
	src := []byte(in.Content)
	tree, err := parse(ctx, qc.lang, src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	cursor := sitter.NewQueryCursor()
	defer cursor.Close()
	matches := cursor.MatchesWithOptions(qc.query, tree.RootNode(), src, sitter.QueryCursorOptions{
		ProgressCallback: func(sitter.QueryCursorState) bool { return ctx.Err() != nil },
	})
	var sp []splice
	seen := map[[2]uint]bool{} // a node captured by two matches is replaced once
	for m := matches.Next(); m != nil; m = matches.Next() {
		var target *sitter.Node
		var b strings.Builder
		for _, p := range qc.parts {
			if !p.isCapture {
				b.WriteString(p.text)
				continue
			}
			for _, c := range m.Captures {
				if uint(c.Index) == p.capture {
					b.WriteString(text(&c.Node, src))
					break
				}
			}
		}
		for _, c := range m.Captures {
			if uint(c.Index) == qc.capture {
				target = &c.Node
				break
			}
		}
		if target == nil {
			continue
		}
		key := [2]uint{target.StartByte(), target.EndByte()}
		if !seen[key] {
			seen[key] = true
			sp = append(sp, splice{key[0], key[1], b.String()})
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(sp) == 0 {
		return nil, errorf(KindNoMatch, "the codemod's query matches nothing in the file")
	}
	slices.SortFunc(sp, func(a, b splice) int { return int(a.start) - int(b.start) })
	return sp, nil
}

func (qc *queryCodemod) run(ctx context.Context, in Input) (string, error) {
	sp, err := qc.splices(ctx, in)
	if err != nil {
		return "", err
	}
	if err := checkSize(in, sp); err != nil {
		return "", err
	}
	return applySplices(in.Content, sp)
}
