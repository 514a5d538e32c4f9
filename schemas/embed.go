// Package schemas publishes mcpc's wire contract as JSON Schema files
// (TurnRequest, TurnResponse, PlanGraph) and compiles them for validation.
// The files are the documentation clients read; the same bytes are what the
// server checks requests against, so the two cannot drift.
package schemas

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strconv"
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
	var leaves []Problem
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, leafProblems(e)...)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return mergeProblems(nil, leaves)
}

// leafProblems are the problems of one leaf error. A missing-properties
// error is one problem per property, at the property's own path
// (args.need), so a rule that also knows the property is required can tell
// it is the same fault and report it once.
func leafProblems(e *jsonschema.ValidationError) []Problem {
	path := dotted(e.InstanceLocation)
	expected := expectedAt(e.AbsoluteKeywordLocation)
	if strings.HasSuffix(e.KeywordLocation, "/required") {
		if names, ok := missingProperties(e.Message); ok {
			out := make([]Problem, 0, len(names))
			for _, name := range names {
				at := name
				if path != "" {
					at = path + "." + name
				}
				out = append(out, Problem{Path: at, Message: "missing property", Expected: expected})
			}
			return out
		}
	}
	return []Problem{{Path: path, Message: e.Message, Expected: expected}}
}

// missingProperties reads the names out of the validator's "missing
// properties: 'a', 'b'" message (each name quoted as %q would, but in
// single quotes, the form jsonschema/v5 has no structured field for);
// false when the message is not in that form.
func missingProperties(msg string) ([]string, bool) {
	rest, ok := strings.CutPrefix(msg, "missing properties: ")
	if !ok {
		return nil, false
	}
	var names []string
	for rest != "" {
		if rest[0] != '\'' {
			return nil, false
		}
		end := 1
		for end < len(rest) && rest[end] != '\'' {
			if rest[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(rest) {
			return nil, false
		}
		inner := strings.ReplaceAll(strings.ReplaceAll(rest[1:end], `\'`, `'`), `"`, `\"`)
		name, err := strconv.Unquote(`"` + inner + `"`)
		if err != nil {
			return nil, false
		}
		names = append(names, name)
		rest = strings.TrimPrefix(rest[end+1:], ", ")
	}
	return names, len(names) > 0
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

// PolicyData holds the schemas of policies/data tables, by the table's file
// name (protected.json): `mcpc policy check` validates a table that has one.
//
//go:embed policy-data/*.schema.json
var PolicyData embed.FS

// CompilePolicyData compiles the schema of one policies/data table, or
// returns nil, nil when the table has none.
func CompilePolicyData(table string) (*jsonschema.Schema, error) {
	name := "policy-data/" + strings.TrimSuffix(table, ".json") + ".schema.json"
	raw, err := PolicyData.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // no schema for this table
	}
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	if err := c.AddResource(base+name, bytes.NewReader(raw)); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return c.Compile(base + name)
}
