// Package patch applies apply_code_patch's structured edits to file content
// in memory: replace_text (exact, unambiguous text replacement), codemods
// that work on tree-sitter syntax trees (built in or declared in config;
// HTML templates are read with the WHATWG tokenizer of golang.org/x/net/html
// instead, for speed: see markup.go) and set_content (the whole content of
// a file a plan creates). It
// never touches the disk; the controller dry-runs a patch to gather facts for
// policy and writes the result atomically only after the decision allows it.
//
// Everything here terminates on any input and is bounded by the caller's
// context: parsing stops when the context is done, every walk is over a
// finite tree, and no edit re-scans its own output. A problem says what went
// wrong in Message and which class of problem it is in Kind, a stable name a
// policy rule can match on.
package patch

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpc/mcpc/schemas"
)

// Problem kinds: the stable classes of schemas.Problem.Kind this package
// reports.
const (
	KindInvalidEdit    = "invalid_edit"      // an edit whose shape is wrong (unknown op, empty find)
	KindNoMatch        = "no_match"          // the find text, identifier, tag, import or route is absent
	KindAmbiguous      = "ambiguous"         // find occurs more than once and no occurrence was given
	KindOccurrence     = "occurrence_range"  // occurrence past the number of matches
	KindUnknownCodemod = "unknown_codemod"   // no built-in or configured codemod of that name
	KindInvalidParams  = "invalid_params"    // a codemod's params do not fit its table entry
	KindNoChange       = "no_change"         // the edit would leave the content as it is (from equals to)
	KindUnsupported    = "unsupported_file"  // the codemod has no grammar for the file's extension
	KindConflict       = "conflict"          // the codemod's edits overlap, or a target cannot take the change
	KindTooLarge       = "output_too_large"  // the result would pass Options.MaxOutputBytes
	KindDeadline       = "deadline_exceeded" // the context ended before the edit finished
	KindParseFailed    = "parse_failed"      // the parser gave no tree
)

// Edit is one structured edit.
type Edit struct {
	Op         string         `json:"op"`
	Find       string         `json:"find,omitempty"`
	Replace    string         `json:"replace,omitempty"`
	Occurrence int            `json:"occurrence,omitempty"` // 1-based; 0 means find must match exactly once
	Codemod    string         `json:"codemod,omitempty"`
	Content    string         `json:"content,omitempty"` // set_content: the file's whole new content
	Params     map[string]any `json:"params,omitempty"`
}

// ParseEdits reads args.edits from the request document policy judged,
// with exact key lookups: a second, case-insensitive decoding could read a
// "FIND" twin policy never saw (exactjson refuses twins before this runs;
// this does not rely on it).
func ParseEdits(v any) ([]Edit, error) {
	if v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, errNotEdits
	}
	edits := make([]Edit, 0, len(list))
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, errNotEdits
		}
		var e Edit
		ok = optString(m, "op", &e.Op) && optString(m, "find", &e.Find) && optString(m, "replace", &e.Replace) &&
			optString(m, "codemod", &e.Codemod) && optString(m, "content", &e.Content)
		switch n := m["occurrence"].(type) {
		case nil:
		case float64:
			if n != float64(int(n)) {
				ok = false
			}
			e.Occurrence = int(n)
		default:
			ok = false
		}
		switch p := m["params"].(type) {
		case nil:
		case map[string]any:
			e.Params = p
		default:
			ok = false
		}
		if !ok {
			return nil, errNotEdits
		}
		edits = append(edits, e)
	}
	return edits, nil
}

var errNotEdits = errors.New("edits must be a list of edit objects")

// optString reads an optional string field; false when it holds another type.
func optString(m map[string]any, key string, out *string) bool {
	switch s := m[key].(type) {
	case nil:
		return true
	case string:
		*out = s
		return true
	}
	return false
}

// Error is a failed edit: a Kind from the list above and a message for the
// agent.
type Error struct {
	Kind    string
	Message string
}

func (e *Error) Error() string { return e.Message }

func errorf(kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// kindOf classifies any error an edit returned; a context error is a
// deadline whatever wrapped it.
func kindOf(err error) (string, string) {
	var pe *Error
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		return KindDeadline, "the edit did not finish within the time allowed"
	case errors.As(err, &pe):
		return pe.Kind, pe.Message
	}
	return KindInvalidEdit, err.Error()
}

// DefaultMaxOutputBytes bounds a patch's result when Options leave it zero.
const DefaultMaxOutputBytes = 64 << 20

// Options are what one Apply may use besides the content.
type Options struct {
	// File is the target's repository-relative path: codemods pick their
	// grammar by its extension.
	File string
	// Registry resolves codemod names; nil is the built-ins alone.
	Registry *Registry
	// MaxOutputBytes bounds the content after each edit; 0 is the default.
	MaxOutputBytes int
}

// Apply runs the edits in order on content, within ctx. Every edit that
// cannot apply is reported (with its args path and kind); the content is
// returned only when all did. Once ctx ends, the remaining edits are
// reported as deadline problems without being tried.
func Apply(ctx context.Context, content string, edits []Edit, opts Options) (string, []schemas.Problem) {
	reg := opts.Registry
	if reg == nil {
		reg = Builtins()
	}
	limit := opts.MaxOutputBytes
	if limit <= 0 {
		limit = DefaultMaxOutputBytes
	}
	var probs []schemas.Problem
	for i, e := range edits {
		path := fmt.Sprintf("args.edits[%d]", i)
		out, err := applyOne(ctx, reg, content, e, opts.File, limit)
		if err == nil && len(out) > limit {
			err = errorf(KindTooLarge, "the result would be %d bytes, over the limit of %d", len(out), limit)
		}
		if err != nil {
			kind, msg := kindOf(err)
			probs = append(probs, schemas.Problem{Path: path, Message: msg, Kind: kind})
			continue
		}
		content = out
	}
	if len(probs) > 0 {
		return "", probs
	}
	return content, nil
}

func applyOne(ctx context.Context, reg *Registry, content string, e Edit, file string, limit int) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	switch e.Op {
	case "replace_text":
		if len(content)+len(e.Replace)-len(e.Find) > limit {
			return "", errorf(KindTooLarge, "the result would be over the limit of %d bytes", limit)
		}
		return replaceText(content, e)
	case "codemod":
		return reg.Run(ctx, e.Codemod, Input{File: file, Content: content, Params: e.Params, MaxOutputBytes: limit})
	case "set_content":
		// The whole content, for a file a change node creates; policy
		// decides where it is allowed.
		return e.Content, nil
	}
	return "", errorf(KindInvalidEdit, "unknown op %q (replace_text, codemod or set_content)", e.Op)
}
