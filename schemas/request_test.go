package schemas

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpc/mcpc/internal/protocol"
)

// requests covers every verb's branch with valid and invalid arguments, and
// envelope faults, so the split checker can be compared with the whole file.
var requests = []struct{ note, doc string }{
	{"read valid", `{"verb":"read_file_lines","workId":"w","agentId":"a","args":{"targetFile":"src/a.ts","startLine":1,"endLine":5}}`},
	{"read missing args", `{"verb":"read_file_lines","workId":"w"}`},
	{"read bad line type", `{"verb":"read_file_lines","args":{"targetFile":"a","startLine":"one"}}`},
	{"read extra arg", `{"verb":"read_file_lines","args":{"targetFile":"a","bogus":1}}`},
	{"initialize no args", `{"verb":"initialize_work","originalPrompt":"x"}`},
	{"initialize bad lexemes", `{"verb":"initialize_work","args":{"lexemes":"adp"}}`},
	{"search", `{"verb":"search_codebase_text","args":{"query":"adp"}}`},
	{"search empty", `{"verb":"search_codebase_text","args":{}}`},
	{"symbol", `{"verb":"lookup_symbol_definition","args":{"symbol":"X"}}`},
	{"trace", `{"verb":"trace_symbol_graph","args":{}}`},
	{"scratch", `{"verb":"write_scratch_file","args":{"path":"n.md","content":"x"}}`},
	{"plan not object", `{"verb":"submit_execution_plan","args":{"planGraph":3}}`},
	{"escalate", `{"verb":"escalate","args":{}}`},
	{"complete", `{"verb":"signal_task_complete"}`},
	{"patch bad edits", `{"verb":"apply_code_patch","args":{"nodeId":"n","targetFile":"a","edits":[{"kind":"replace_text"}]}}`},
	{"recipe", `{"verb":"run_automation_recipe","args":{"recipeId":"run_targeted_validation"}}`},
	{"sandbox", `{"verb":"run_sandboxed_code","args":{}}`},
	{"side effect", `{"verb":"execute_gated_side_effect","args":{"effect":"git_commit"}}`},
	{"unknown verb", `{"verb":"teleport","args":{"x":1}}`},
	{"verb not string", `{"verb":7}`},
	{"extra envelope field", `{"verb":"escalate","bogus":true,"args":{}}`},
	{"not an object", `[1,2]`},
}

func TestRequestCheckerMatchesWholeSchema(t *testing.T) {
	whole, err := Compile("turn-request.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	split, err := NewRequestChecker()
	if err != nil {
		t.Fatal(err)
	}
	key := func(ps []Problem) []string {
		out := []string{}
		for _, p := range ps {
			out = append(out, p.Path+": "+p.Message)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	invalid := 0
	for _, tc := range requests {
		t.Run(tc.note, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatal(err)
			}
			want, got := key(Check(whole, doc)), key(split.Check(doc))
			if !slices.Equal(want, got) {
				t.Fatalf("whole schema: %q\nsplit checker: %q", want, got)
			}
			if len(got) > 0 {
				invalid++
			}
		})
	}
	// Without a verb every branch's `if` holds vacuously, so the whole file
	// reports each verb's missing arguments; the split checker reports the
	// one fault that matters.
	var doc any
	_ = json.Unmarshal([]byte(`{"args":{}}`), &doc)
	if got := key(split.Check(doc)); !slices.Equal(got, []string{"verb: missing property"}) {
		t.Fatalf("no verb: %q", got)
	}
	if invalid < 10 {
		t.Fatalf("only %d of the cases are invalid; the comparison needs failing cases too", invalid)
	}
}

func BenchmarkRequestCheck(b *testing.B) {
	whole, _ := Compile("turn-request.schema.json")
	split, err := NewRequestChecker()
	if err != nil {
		b.Fatal(err)
	}
	var doc any
	_ = json.Unmarshal([]byte(requests[0].doc), &doc)
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Check(whole, doc)
		}
	})
	b.Run("split", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			split.Check(doc)
		}
	})
	library := *split
	library.validEnvelope = nil // every request to the library, as before validSchema
	b.Run("split/library", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			library.Check(doc)
		}
	})
}

// The controller echoes a sent id only when it is within
// protocol.MaxIDLength: the schema's own limit, said once in each place.
func TestIDLengthMatchesSchema(t *testing.T) {
	var doc struct {
		Properties map[string]struct {
			MaxLength int `json:"maxLength"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(TurnRequest, &doc); err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"runSessionId", "workId", "agentId"} {
		if got := doc.Properties[field].MaxLength; got != protocol.MaxIDLength {
			t.Errorf("%s maxLength %d, protocol.MaxIDLength %d", field, got, protocol.MaxIDLength)
		}
	}
}
