// Package patch applies apply_code_patch's structured edits to file content
// in memory: replace_text (exact, unambiguous text replacement) and a small
// set of built-in codemods. It never touches the disk; the controller dry-runs
// a patch to gather facts for policy and writes the result atomically only
// after the decision allows it.
package patch

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/mcpc/mcpc/schemas"
)

// Edit is one structured edit.
type Edit struct {
	Op         string         `json:"op"`
	Find       string         `json:"find,omitempty"`
	Replace    string         `json:"replace,omitempty"`
	Occurrence int            `json:"occurrence,omitempty"` // 1-based; 0 means find must match exactly once
	Codemod    string         `json:"codemod,omitempty"`
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
			optString(m, "codemod", &e.Codemod)
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

// Codemods are the built-in codemods by name.
var Codemods = map[string]func(content string, params map[string]any) (string, error){
	"rename_identifier_in_file": renameIdentifier,
	"rewrite_template_tag":      rewriteTemplateTag,
}

// Apply runs the edits in order on content. Every edit that cannot apply is
// reported (with its args path); the content is returned only when all did.
func Apply(content string, edits []Edit) (string, []schemas.Problem) {
	var probs []schemas.Problem
	for i, e := range edits {
		path := fmt.Sprintf("args.edits[%d]", i)
		var err error
		switch e.Op {
		case "replace_text":
			content, err = replaceText(content, e)
		case "codemod":
			fn, ok := Codemods[e.Codemod]
			if !ok {
				err = fmt.Errorf("unknown codemod %q", e.Codemod)
				break
			}
			var out string
			if out, err = fn(content, e.Params); err == nil {
				content = out
			}
		default:
			err = fmt.Errorf("unknown op %q (replace_text or codemod)", e.Op)
		}
		if err != nil {
			probs = append(probs, schemas.Problem{Path: path, Message: err.Error()})
		}
	}
	if len(probs) > 0 {
		return "", probs
	}
	return content, nil
}

func replaceText(content string, e Edit) (string, error) {
	if e.Find == "" {
		return "", fmt.Errorf("find is empty")
	}
	n := strings.Count(content, e.Find)
	switch {
	case n == 0:
		return "", fmt.Errorf("find text does not occur in the file")
	case e.Occurrence == 0 && n > 1:
		return "", fmt.Errorf("find text occurs %d times; give occurrence (1-%d) or a longer find", n, n)
	case e.Occurrence > n:
		return "", fmt.Errorf("occurrence %d asked, the find text occurs %d times", e.Occurrence, n)
	}
	k := e.Occurrence
	if k == 0 {
		k = 1
	}
	at := 0
	for i := 1; ; i++ {
		j := strings.Index(content[at:], e.Find)
		if i == k {
			at += j
			break
		}
		at += j + len(e.Find)
	}
	return content[:at] + e.Replace + content[at+len(e.Find):], nil
}

// fromTo reads a codemod's {from, to} params, both matching valid.
func fromTo(params map[string]any, valid *regexp.Regexp, what string) (string, string, error) {
	from, _ := params["from"].(string)
	to, _ := params["to"].(string)
	if from == "" || to == "" {
		return "", "", fmt.Errorf("params from and to are required")
	}
	if !valid.MatchString(from) || !valid.MatchString(to) {
		return "", "", fmt.Errorf("from and to must be %s", what)
	}
	return from, to, nil
}

var identRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// renameIdentifier renames a whole identifier (word boundaries), params
// {from, to}.
func renameIdentifier(content string, params map[string]any) (string, error) {
	from, to, err := fromTo(params, identRe, "identifiers")
	if err != nil {
		return "", err
	}
	re := regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(from) + `($|[^A-Za-z0-9_$])`)
	if !re.MatchString(content) {
		return "", fmt.Errorf("identifier %q does not occur", from)
	}
	// Two passes: adjacent matches share a boundary character.
	for re.MatchString(content) {
		content = re.ReplaceAllString(content, "${1}"+to+"${2}")
	}
	return content, nil
}

var tagRe = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)+$`)

// rewriteTemplateTag rewrites a custom element's opening and closing tags,
// params {from, to} (e.g. adp-alert -> sdf-alert); attributes are kept.
func rewriteTemplateTag(content string, params map[string]any) (string, error) {
	from, to, err := fromTo(params, tagRe, "custom element names like adp-alert")
	if err != nil {
		return "", err
	}
	re := regexp.MustCompile(`<(/?)` + regexp.QuoteMeta(from) + `([\s/>])`)
	if !re.MatchString(content) {
		return "", fmt.Errorf("tag <%s> does not occur", from)
	}
	return re.ReplaceAllString(content, "<${1}"+to+"${2}"), nil
}
