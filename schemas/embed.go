// Package schemas publishes mcpc's wire contract as JSON Schema files
// (TurnRequest, TurnResponse, PlanGraph) and compiles them for validation.
// The files are the documentation clients read; the same bytes are what the
// server checks requests against, so the two cannot drift.
package schemas

import (
	"bytes"
	_ "embed"
	"fmt"
	"maps"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

var (
	//go:embed turn-request.schema.json
	TurnRequest []byte
	//go:embed turn-response.schema.json
	TurnResponse []byte
	//go:embed plan-graph.schema.json
	PlanGraph []byte
	//go:embed config.schema.json
	Config []byte
	//go:embed graph-seed.schema.json
	GraphSeed []byte
	//go:embed memory-record.schema.json
	MemoryRecord []byte
)

const base = "https://mcpc.dev/schemas/"

// Compile returns the compiled schema of one of the published files
// ("turn-request.schema.json", ...).
func Compile(name string) (*jsonschema.Schema, error) {
	c, err := newCompiler(nil)
	if err != nil {
		return nil, err
	}
	return c.Compile(base + name)
}

// newCompiler has every published file loaded, plus extra resources keyed
// by file name, so cross-file $refs resolve.
func newCompiler(extra map[string][]byte) (*jsonschema.Compiler, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	files := map[string][]byte{
		"turn-request.schema.json":  TurnRequest,
		"turn-response.schema.json": TurnResponse,
		"plan-graph.schema.json":    PlanGraph,
		"config.schema.json":        Config,
		"graph-seed.schema.json":    GraphSeed,
		"memory-record.schema.json": MemoryRecord,
	}
	maps.Copy(files, extra)
	for file, raw := range files {
		if err := c.AddResource(base+file, bytes.NewReader(raw)); err != nil {
			return nil, fmt.Errorf("schema %s: %w", file, err)
		}
	}
	return c, nil
}

// Problem is one validation failure: where in the instance and what.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
	// Expected is the schema the value at Path had to match (compact
	// JSON, summarised when long), so a denial can show the shape.
	Expected string `json:"expected,omitempty"`
	// Kind is a stable name for the class of problem when the producer has
	// one (internal/patch: "no_match", "deadline_exceeded", ...), so a rule
	// can tell classes apart without parsing Message.
	Kind string `json:"kind,omitempty"`
}

// Check validates v (decoded JSON) and flattens the errors to the leaves, with
// instance paths in the dotted form policies report (args.edits[0].find).
func Check(s *jsonschema.Schema, v any) []Problem {
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []Problem{{Path: "", Message: err.Error()}}
	}
	var out []Problem
	seen := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			p := Problem{Path: dotted(e.InstanceLocation), Message: e.Message, Expected: expectedAt(e.AbsoluteKeywordLocation)}
			if k := p.Path + "\x00" + p.Message; !seen[k] {
				seen[k] = true
				out = append(out, p)
			}
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// dotted turns a JSON pointer (/args/edits/0/find) into args.edits[0].find.
func dotted(ptr string) string {
	var b strings.Builder
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if seg == "" {
			continue
		}
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		if seg[0] >= '0' && seg[0] <= '9' && strings.Trim(seg, "0123456789") == "" {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}
