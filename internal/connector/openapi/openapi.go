// Package openapi reads API contracts (OpenAPI 3.0 and 3.1, Swagger 2.0,
// YAML or JSON) with kin-openapi, finds the operations a prompt or its
// lexemes reference (a path, an operationId, a tag), and slices each into
// what an agent plans against: method, path, parameters, request and
// response schemas with their refs resolved, bounded in size. External
// refs are never followed: a spec must not make mcpc read other files or
// hosts.
package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v3"

	"github.com/mcpc/mcpc/internal/connector"
)

// Source is the citation source of an operation.
const Source = "swagger"

// Spec is a parsed contract and its operations in a stable order.
type Spec struct {
	Name    string // the file or URL it came from
	Version string // the document's openapi or swagger version
	Ops     []*Operation
}

// Operation is one method on one path.
type Operation struct {
	Method      string
	Path        string
	OperationID string
	Tags        []string
	Summary     string
	item        *openapi3.PathItem
	op          *openapi3.Operation
	// literal is the path's longest part without a parameter: text that
	// lacks it cannot name the path, and the regexps are not compiled or run.
	literal string
	once    sync.Once
	pathRE  *regexp.Regexp // the path named in prose
	// methodRE also wants the method right before the path.
	methodRE *regexp.Regexp
	// slice is the rendered slice of an operation read back from an index
	// (FromEntries); item and op are nil then.
	slice json.RawMessage
}

// Ref is how a plan cites the operation: "<METHOD> <path>".
func (o *Operation) Ref() string { return o.Method + " " + o.Path }

// Parse reads a spec. Its errors are *connector.Error with code malformed.
func Parse(name string, data []byte) (*Spec, error) {
	var head struct {
		Swagger string `yaml:"swagger" json:"swagger"`
		OpenAPI string `yaml:"openapi" json:"openapi"`
	}
	// JSON is read as JSON: a YAML parser reads it too, ten times slower.
	isJSON := bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))
	if isJSON && json.Unmarshal(data, &head) != nil || !isJSON && yaml.Unmarshal(data, &head) != nil {
		return nil, connector.Errorf(connector.CodeMalformed, "%s is neither JSON nor YAML", name)
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	var doc *openapi3.T
	switch {
	case strings.HasPrefix(head.Swagger, "2."):
		raw := data
		if !isJSON {
			var generic any
			if err := yaml.Unmarshal(data, &generic); err != nil {
				return nil, connector.Errorf(connector.CodeMalformed, "%s is not valid YAML", name)
			}
			var err error
			if raw, err = json.Marshal(generic); err != nil {
				return nil, connector.Errorf(connector.CodeMalformed, "%s: %v", name, err)
			}
		}
		var d2 openapi2.T
		err := json.Unmarshal(raw, &d2)
		if err != nil {
			return nil, connector.Errorf(connector.CodeMalformed, "%s is not a Swagger 2.0 document: %v", name, err)
		}
		if doc, err = openapi2conv.ToV3(&d2); err != nil {
			return nil, connector.Errorf(connector.CodeMalformed, "%s could not be converted from Swagger 2.0: %v", name, err)
		}
		if err := loader.ResolveRefsIn(doc, nil); err != nil {
			return nil, connector.Errorf(connector.CodeMalformed, "%s: %v", name, err)
		}
		head.OpenAPI = head.Swagger
	case strings.HasPrefix(head.OpenAPI, "3."):
		var err error
		if doc, err = loader.LoadFromData(data); err != nil {
			return nil, connector.Errorf(connector.CodeMalformed, "%s is not a valid OpenAPI document: %v", name, err)
		}
	default:
		return nil, connector.Errorf(connector.CodeMalformed, "%s has neither an openapi 3.x nor a swagger 2.0 version", name)
	}
	s := &Spec{Name: name, Version: head.OpenAPI}
	if doc.Paths == nil {
		return s, nil
	}
	paths := doc.Paths.Keys()
	sort.Strings(paths)
	for _, p := range paths {
		item := doc.Paths.Value(p)
		if item == nil {
			continue
		}
		for _, m := range methods {
			op := item.GetOperation(m)
			if op == nil {
				continue
			}
			s.Ops = append(s.Ops, &Operation{Method: m, Path: p, OperationID: op.OperationID, Tags: op.Tags,
				Summary: op.Summary, item: item, op: op, literal: longestLiteral(p)})
		}
	}
	return s, nil
}

var methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete,
	http.MethodHead, http.MethodOptions, http.MethodTrace}

// pathPattern matches a path in prose: its template parameters stand for
// any segment, and it must end where a path would (not inside a longer one).
// methodRE also wants the method right before it.
func pathPattern(method, p string) (pathRE, methodRE *regexp.Regexp) {
	if len(p) < 2 {
		return nil, nil
	}
	var core strings.Builder
	for i, part := range templateParam.Split(p, -1) {
		if i > 0 {
			core.WriteString(`(?:\{[^}/\s]*\}|[^/\s"'` + "`" + `]+)`)
		}
		core.WriteString(regexp.QuoteMeta(part))
	}
	end := "(?:$|[\\s\"'),.;:?!`])"
	pathRE, err := regexp.Compile("(?:^|[\\s\"'(`])" + core.String() + end)
	if err != nil {
		return nil, nil
	}
	methodRE, err = regexp.Compile(`(?i)(?:^|[^A-Za-z])` + method + `\s+` + core.String() + end)
	if err != nil {
		return nil, nil
	}
	return pathRE, methodRE
}

var templateParam = regexp.MustCompile(`\{[^}/]*\}`)

func longestLiteral(p string) string {
	best := ""
	for _, part := range templateParam.Split(p, -1) {
		if len(part) > len(best) {
			best = part
		}
	}
	return best
}

// mayName is the cheap test before the path's regexps; it compiles them
// the first time it passes.
func (o *Operation) mayName(text string) bool {
	if len(o.Path) < 2 || !strings.Contains(text, o.literal) {
		return false
	}
	o.once.Do(func() { o.pathRE, o.methodRE = pathPattern(o.Method, o.Path) })
	return o.pathRE != nil
}

// Match returns the operations prompt and lexemes reference, at most max:
// those whose path (narrowed to the methods named right before it, when
// any is) or operationId they name first, then those of a tag a lexeme
// names (a tag is a common word: a prompt word alone does not select one).
func (s *Spec) Match(prompt string, lexemes []string, max int) []*Operation {
	text := strings.Join(append([]string{prompt}, lexemes...), "\n")
	words := map[string]bool{}
	for _, w := range wordRE.FindAllString(text, -1) {
		words[strings.ToLower(strings.Trim(w, ".-"))] = true
	}
	lex := map[string]bool{}
	for _, l := range lexemes {
		lex[strings.ToLower(strings.TrimSpace(l))] = true
	}
	narrowed := map[string]bool{} // paths a method was named for
	for _, op := range s.Ops {
		if op.mayName(text) && op.methodRE.MatchString(text) {
			narrowed[op.Path] = true
		}
	}
	var direct, byTag []*Operation
	for _, op := range s.Ops {
		switch {
		case op.OperationID != "" && words[strings.ToLower(op.OperationID)]:
			direct = append(direct, op)
		case op.mayName(text) && op.pathRE.MatchString(text):
			if !narrowed[op.Path] || op.methodRE.MatchString(text) {
				direct = append(direct, op)
			}
		case slices.ContainsFunc(op.Tags, func(t string) bool { return lex[strings.ToLower(t)] }):
			byTag = append(byTag, op)
		}
	}
	out := append(direct, byTag...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}

var wordRE = regexp.MustCompile(`[A-Za-z0-9_.-]+`)

// Slice is an operation as an attachment holds it.
type Slice struct {
	Ref         string              `json:"ref"`
	Spec        string              `json:"spec"`
	Method      string              `json:"method"`
	Path        string              `json:"path"`
	OperationID string              `json:"operationId,omitempty"`
	Summary     string              `json:"summary,omitempty"`
	Description string              `json:"description,omitempty"`
	Tags        []string            `json:"tags,omitempty"`
	Parameters  []Parameter         `json:"parameters"`
	RequestBody *Body               `json:"requestBody,omitempty"`
	Responses   map[string]Response `json:"responses"`
	// Depth is how deep schemas were expanded to fit the size bound.
	Depth     int  `json:"schemaDepth"`
	Truncated bool `json:"truncated,omitempty"`
}

// Parameter is one parameter of an operation.
type Parameter struct {
	Name        string `json:"name"`
	In          string `json:"in"`
	Required    bool   `json:"required,omitempty"`
	Description string `json:"description,omitempty"`
	Schema      any    `json:"schema,omitempty"`
}

// Body is a request body.
type Body struct {
	Required bool           `json:"required,omitempty"`
	Content  map[string]any `json:"content"`
}

// Response is one response.
type Response struct {
	Description string         `json:"description,omitempty"`
	Content     map[string]any `json:"content,omitempty"`
}

// Slice renders op within maxBytes of JSON: schemas are expanded as deep as
// fits (refs resolved, a cycle shown as its ref's name).
func (s *Spec) Slice(op *Operation, maxBytes int) (Slice, []byte) {
	if op.op == nil { // read back from an index: rendered at its bound
		var sl Slice
		_ = json.Unmarshal(op.slice, &sl)
		return sl, op.slice
	}
	var sl Slice
	var raw []byte
	for _, depth := range []int{8, 5, 3, 2, 1, 0} {
		sl = s.render(op, depth)
		raw, _ = json.Marshal(sl)
		if len(raw) <= maxBytes {
			return sl, raw
		}
	}
	sl.Truncated = true
	sl.Description = clip(sl.Description, 512)
	sl.Responses = map[string]Response{}
	sl.RequestBody = nil
	raw, _ = json.Marshal(sl)
	return sl, raw
}

// maxSchemaNodes bounds one rendering: a spec whose schemas fan out (a
// hundred properties, each an object of a hundred more) would otherwise
// cost time exponential in the depth before the size bound could cut it.
const maxSchemaNodes = 4000

func (s *Spec) render(op *Operation, depth int) Slice {
	rd := &renderer{left: maxSchemaNodes}
	sl := Slice{Ref: op.Ref(), Spec: s.Name, Method: op.Method, Path: op.Path, OperationID: op.OperationID,
		Summary: clip(op.Summary, 512), Description: clip(op.op.Description, 4096), Tags: op.Tags,
		Parameters: []Parameter{}, Responses: map[string]Response{}, Depth: depth}
	seen := map[string]bool{}
	for _, params := range []openapi3.Parameters{op.item.Parameters, op.op.Parameters} {
		for _, pr := range params {
			if pr == nil || pr.Value == nil {
				continue
			}
			p := pr.Value
			key := p.In + ":" + p.Name
			if seen[key] {
				continue
			}
			seen[key] = true
			sl.Parameters = append(sl.Parameters, Parameter{Name: p.Name, In: p.In, Required: p.Required,
				Description: clip(p.Description, 512), Schema: rd.schemaOf(p.Schema, depth, nil)})
		}
	}
	if rb := op.op.RequestBody; rb != nil && rb.Value != nil {
		sl.RequestBody = &Body{Required: rb.Value.Required, Content: rd.contentOf(rb.Value.Content, depth)}
	}
	if op.op.Responses != nil {
		for code, rr := range op.op.Responses.Map() {
			if rr == nil || rr.Value == nil {
				continue
			}
			r := Response{Content: rd.contentOf(rr.Value.Content, depth)}
			if rr.Value.Description != nil {
				r.Description = clip(*rr.Value.Description, 512)
			}
			sl.Responses[code] = r
		}
	}
	if rd.left <= 0 {
		sl.Truncated = true
	}
	return sl
}

// renderer renders schemas within a node budget.
type renderer struct{ left int }

func (rd *renderer) contentOf(c openapi3.Content, depth int) map[string]any {
	out := map[string]any{}
	for mt, m := range c {
		if m == nil {
			continue
		}
		out[mt] = map[string]any{"schema": rd.schemaOf(m.Schema, depth, nil)}
	}
	return out
}

// schemaOf renders a schema with its refs resolved, depth levels deep.
// path holds the refs being expanded: a ref met again inside itself is a
// cycle and is shown by name.
func (rd *renderer) schemaOf(sr *openapi3.SchemaRef, depth int, path []string) any {
	if sr == nil || sr.Value == nil {
		return nil
	}
	name := refName(sr.Ref)
	if rd.left--; rd.left < 0 {
		return map[string]any{"$ref": name, "truncated": true}
	}
	if name != "" && (slices.Contains(path, name) || depth <= 0) {
		return map[string]any{"$ref": name}
	}
	s := sr.Value
	out := map[string]any{}
	if name != "" {
		out["title"] = name
		path = append(path, name)
	} else if s.Title != "" {
		out["title"] = s.Title
	}
	if s.Type != nil && len(*s.Type) > 0 {
		if len(*s.Type) == 1 {
			out["type"] = (*s.Type)[0]
		} else {
			out["type"] = []string(*s.Type)
		}
	}
	for k, v := range map[string]any{"format": s.Format, "description": clip(s.Description, 256), "pattern": s.Pattern} {
		if v != "" {
			out[k] = v
		}
	}
	if len(s.Enum) > 0 {
		out["enum"] = s.Enum
	}
	if s.Const != nil {
		out["const"] = s.Const
	}
	if s.Nullable {
		out["nullable"] = true
	}
	if len(s.Required) > 0 {
		out["required"] = s.Required
	}
	if depth <= 0 {
		if len(s.Properties) > 0 || s.Items != nil {
			out["truncated"] = true
		}
		return out
	}
	if len(s.Properties) > 0 {
		props := map[string]any{}
		for k, p := range s.Properties {
			props[k] = rd.schemaOf(p, depth-1, path)
		}
		out["properties"] = props
	}
	if s.Items != nil {
		out["items"] = rd.schemaOf(s.Items, depth-1, path)
	}
	if ap := s.AdditionalProperties.Schema; ap != nil {
		out["additionalProperties"] = rd.schemaOf(ap, depth-1, path)
	}
	for k, list := range map[string]openapi3.SchemaRefs{"allOf": s.AllOf, "oneOf": s.OneOf, "anyOf": s.AnyOf} {
		if len(list) == 0 {
			continue
		}
		items := make([]any, 0, len(list))
		for _, x := range list {
			items = append(items, rd.schemaOf(x, depth-1, path))
		}
		out[k] = items
	}
	return out
}

func refName(ref string) string {
	if ref == "" {
		return ""
	}
	return ref[strings.LastIndex(ref, "/")+1:]
}

func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// Entry is an operation as an index keeps it: what Match reads, and its
// slice rendered at one bound.
type Entry struct {
	Method      string          `json:"method"`
	Path        string          `json:"path"`
	OperationID string          `json:"operationId,omitempty"`
	Tags        []string        `json:"tags,omitempty"`
	Summary     string          `json:"summary,omitempty"`
	Slice       json.RawMessage `json:"slice"`
}

// Entries renders every operation within maxBytes: an index a later
// process reads back (FromEntries) instead of parsing the spec again.
func (s *Spec) Entries(maxBytes int) []Entry {
	out := make([]Entry, 0, len(s.Ops))
	for _, op := range s.Ops {
		_, raw := s.Slice(op, maxBytes)
		out = append(out, Entry{Method: op.Method, Path: op.Path, OperationID: op.OperationID, Tags: op.Tags, Summary: op.Summary, Slice: raw})
	}
	return out
}

// FromEntries is a spec read back from its index: it matches as the parsed
// spec did and slices with the bound the entries were rendered at.
func FromEntries(name, version string, entries []Entry) *Spec {
	s := &Spec{Name: name, Version: version}
	for _, e := range entries {
		s.Ops = append(s.Ops, &Operation{Method: e.Method, Path: e.Path, OperationID: e.OperationID, Tags: e.Tags,
			Summary: e.Summary, literal: longestLiteral(e.Path), slice: e.Slice})
	}
	return s
}

// Text is what an operation tells retrieval.
func (o *Operation) Text() []string {
	return append([]string{o.Ref(), o.OperationID, o.Summary}, o.Tags...)
}

// String names the spec for messages.
func (s *Spec) String() string { return fmt.Sprintf("%s (%d operations)", s.Name, len(s.Ops)) }
