package schemas

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// provenCases are requests validSchema must prove valid on its own: the
// common turns, which would otherwise pay for the library.
var provenCases = []struct{ note, doc string }{
	{"read", `{"verb":"read_file_lines","workId":"w","agentId":"a","args":{"targetFile":"src/a.ts","startLine":1,"endLine":5}}`},
	{"read without lines", `{"verb":"read_file_lines","workId":"w","args":{"targetFile":"é/ü.ts"}}`},
	{"initialize", `{"verb":"initialize_work","originalPrompt":"x","args":{"lexemes":["a","b"]}}`},
	{"search", `{"verb":"search_codebase_text","args":{"pattern":"adp","files":["a.ts"],"regex":false}}`},
	{"symbol", `{"verb":"lookup_symbol_definition","args":{"symbol":"X"}}`},
	{"trace by file", `{"verb":"trace_symbol_graph","args":{"targetFile":"a.ts"}}`},
	{"complete", `{"verb":"signal_task_complete"}`},
	{"unknown verb", `{"verb":"teleport","args":{"x":1}}`},
}

// notProvenCases are valid or invalid requests validSchema must leave to
// the library: what it cannot prove valid.
var notProvenCases = []struct{ note, doc string }{
	{"line not an integer", `{"verb":"read_file_lines","args":{"targetFile":"a","startLine":1.5}}`},
	{"line zero", `{"verb":"read_file_lines","args":{"targetFile":"a","startLine":0}}`},
	{"empty path", `{"verb":"read_file_lines","args":{"targetFile":""}}`},
	{"verb too long", `{"verb":"` + strings.Repeat("v", 65) + `"}`},
	{"trace with nothing", `{"verb":"trace_symbol_graph","args":{"other":1}}`},
	{"not an object", `"read_file_lines"`},
}

// checkProven: whenever validSchema proves a request valid, the library
// finds nothing wrong with it.
func checkProven(t *testing.T, rc *RequestChecker, doc any) bool {
	t.Helper()
	m, _ := doc.(map[string]any)
	verb, _ := m["verb"].(string)
	proven := rc.provenValid(doc, verb)
	if !proven {
		return false
	}
	probs := Check(rc.envelope, doc)
	if s := rc.verbs[verb]; s != nil {
		probs = append(probs, Check(s, doc)...)
	}
	if len(probs) > 0 {
		t.Fatalf("proven valid, but the library reports %v", probs)
	}
	return true
}

func TestValidSchemaProvesOnlyValid(t *testing.T) {
	rc, err := NewRequestChecker()
	if err != nil {
		t.Fatal(err)
	}
	for _, group := range []struct {
		cases  []struct{ note, doc string }
		proven bool
		either bool // proven or not, as long as only what the library passes
	}{{provenCases, true, false}, {notProvenCases, false, false}, {requests, false, true}} {
		for _, tc := range group.cases {
			t.Run(tc.note, func(t *testing.T) {
				var doc any
				if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
					t.Fatal(err)
				}
				if got := checkProven(t, rc, doc); got != group.proven && !group.either {
					t.Fatalf("%s: proven valid %v, want %v", tc.doc, got, group.proven)
				}
			})
		}
	}
	for _, verb := range []string{"read_file_lines", "initialize_work", "search_codebase_text", "lookup_symbol_definition", "trace_symbol_graph"} {
		if rc.validVerbs[verb] == nil {
			t.Errorf("%s: validSchema does not compile its branch", verb)
		}
	}
}

// FuzzValidSchema: no document validSchema proves valid has a problem the
// library reports.
func FuzzValidSchema(f *testing.F) {
	for _, tc := range append(append(slices.Clone(requests), provenCases...), notProvenCases...) {
		f.Add(tc.doc)
	}
	rc, err := NewRequestChecker()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var doc any
		if json.Unmarshal([]byte(s), &doc) == nil {
			checkProven(t, rc, doc)
		}
	})
}
