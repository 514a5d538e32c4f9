package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestPlanFromExample writes a plan only from what initialize_work
// returned: planGraphSchema.example, validated against planGraphSchema.schema
// as an agent would, submitted as it is, and accepted.
func TestPlanFromExample(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	schema, ok := init.PlanGraphSchema["schema"].(map[string]any)
	if !ok || schema["title"] == nil {
		t.Fatalf("planGraphSchema.schema is not the PlanGraph JSON Schema: %v", init.PlanGraphSchema["schema"])
	}
	example, ok := init.PlanGraphSchema["example"].(map[string]any)
	if !ok {
		t.Fatalf("planGraphSchema has no example")
	}
	for k, v := range envelopeOf(init) {
		if raw1, raw2 := toJSON(v), toJSON(example[k]); raw1 != raw2 {
			t.Errorf("example.%s = %s, want the envelope's %s", k, raw2, raw1)
		}
	}
	patch := init.VerbDescriptions["read_file_lines"].Args
	if len(patch) == 0 {
		t.Errorf("verbDescriptions.read_file_lines has no args schema")
	}
	// Round trip through JSON, as an agent copying text would.
	var plan map[string]any
	must(t, json.Unmarshal([]byte(toJSON(example)), &plan))
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	must(t, c.AddResource("plan.schema.json", strings.NewReader(toJSON(schema))))
	compiled, err := c.Compile("plan.schema.json")
	must(t, err)
	if err := compiled.Validate(plan); err != nil {
		t.Errorf("the example does not match the schema sent with it: %v", err)
	}
	acc := a.turn("submit_execution_plan", map[string]any{"planGraph": plan})
	mustAllow(t, acc)
	if acc.State != "PLAN_ACCEPTED" {
		t.Fatalf("the example plan was not accepted: state %s", acc.State)
	}
	// The state changed: the new verbs come with their argument shapes,
	// apply_code_patch's edits included.
	desc, ok := acc.VerbDescriptions["apply_code_patch"]
	if !ok || !json.Valid(desc.Args) || !strings.Contains(string(desc.Args), `"edits"`) || !strings.Contains(string(desc.Args), `"replace_text"`) {
		t.Errorf("apply_code_patch's description lacks the edits shape: %s", desc.Args)
	}
	// A malformed edit is refused with the field, the shape expected there
	// and a valid example.
	bad := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-1", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": 7}}})
	mustDeny(t, bad, "INVALID_ARGS")
	found := false
	for _, d := range bad.Denials {
		if strings.HasPrefix(d.Path, "args.edits[0]") && strings.Contains(d.Message, "expected {") && strings.Contains(d.Message, `example args: {"edits":`) {
			found = true
		}
	}
	if !found {
		t.Errorf("INVALID_ARGS does not name the field, its shape and an example: %v", bad.DenyReasons)
	}
	// A quiet turn repeats none of it.
	read := a.turn("read_file_lines", map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 2})
	mustAllow(t, read)
	if len(read.VerbDescriptions) != 0 {
		t.Errorf("a read in an unchanged state repeated %d verb descriptions", len(read.VerbDescriptions))
	}
}
