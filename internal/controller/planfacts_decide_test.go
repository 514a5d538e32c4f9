package controller

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/mcpc/mcpc/internal/engine"
)

// TestPlanFactsDecideAsWithout: Go's plan facts (node shapes, tags,
// aggregates and indexes) only spare policy walks of the nodes; a recorded
// input without them (replayed by explain-deny) must be decided byte for
// byte alike. The input is a recorded families submission (MigrationRules
// of every status, contracts, plan_rules, grounded prose), altered so that
// each family's rules deny.
func TestPlanFactsDecideAsWithout(t *testing.T) {
	raw, err := os.ReadFile("testdata/families-plan-input.json")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(context.Background(), engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	changes := func(doc map[string]any) []map[string]any {
		var out []map[string]any
		for _, n := range doc["submission"].(map[string]any)["nodes"].([]any) {
			if m := n.(map[string]any); m["kind"] == "change" {
				out = append(out, m)
			}
		}
		return out
	}
	denied := 0
	for _, tc := range []struct {
		note  string
		alter func(doc map[string]any)
	}{
		{"as recorded", func(map[string]any) {}},
		{"an uncited MigrationRule", func(doc map[string]any) { changes(doc)[0]["policyRefs"] = []any{7, "prose:docs/ui.md:3"} }},
		{"off the low-evidence path", func(doc map[string]any) {
			for _, c := range changes(doc) {
				c["lowEvidenceGuard"], c["fallback"] = false, " "
			}
		}},
		{"a prose policy uncited", func(doc map[string]any) { changes(doc)[1]["policyRefs"] = []any{"mig-adp-c07"} }},
		{"contracts broken", func(doc map[string]any) {
			changes(doc)[0]["componentMapping"] = map[string]any{"fromTag": "adp-c00", "toTag": "sdf-c00", "props": []any{"bogus"}}
			changes(doc)[1]["componentMapping"] = map[string]any{"toTag": "sdf-nope"}
		}},
		{"unusual nodes", func(doc map[string]any) {
			changes(doc)[0]["targetSymbols"] = map[string]any{"a": "ADP-C05"}
			delete(changes(doc)[1], "targetFile")
			changes(doc)[2]["citations"] = "prompt"
		}},
		{"validation that covers nothing", func(doc map[string]any) {
			doc["config"].(map[string]any)["validationCovers"] = map[string]any{"no-adp-alert": []any{"docs/**"}}
		}},
		{"validation hooks of another recipe and in an object", func(doc map[string]any) {
			var validates []map[string]any
			for _, n := range doc["submission"].(map[string]any)["nodes"].([]any) {
				if m := n.(map[string]any); m["kind"] == "validate" {
					validates = append(validates, m)
				}
			}
			validates[0]["verificationHooks"] = []any{map[string]any{"recipeId": "replace_lexeme_in_file", "params": map[string]any{}}}
			validates[1]["verificationHooks"] = map[string]any{"a": validates[1]["verificationHooks"].([]any)[0]}
			validates[2]["mapsToNodeIds"] = map[string]any{"x": "change-0003"}
		}},
		{"fallbacks and notes that are not text", func(doc map[string]any) {
			for i, c := range changes(doc) {
				c["uncertaintyNote"] = []any{nil, 3, " \t", "why"}[i%4]
				c["fallback"] = []any{true, "\n", "wrap", nil}[i%4]
				c["requiresHumanReview"] = i%3 != 0
			}
		}},
		{"another strategy", func(doc map[string]any) { doc["envelope"].(map[string]any)["knowledgeStrategyId"] = "neutral" }},
	} {
		t.Run(tc.note, func(t *testing.T) {
			// facts: 2 all of Go's, 1 all but the join with the graph's
			// fileTags (an input recorded before Go reported it), 0 none
			decide := func(facts int) []byte {
				var doc map[string]any
				if err := json.Unmarshal(raw, &doc); err != nil {
					t.Fatal(err)
				}
				tc.alter(doc)
				f := gatherSubmissionFacts(doc["submission"].(map[string]any), embeddedTagPattern())
				switch facts {
				case 2:
					f.addTagTargets(recordedFileTags(t, doc))
				case 0:
					f = submissionFacts{CycleNodes: f.CycleNodes, AllKinded: f.AllKinded}
				}
				doc["submissionFacts"] = f
				in, err := engine.ParseInput(doc)
				if err != nil {
					t.Fatal(err)
				}
				out, err := eng.Eval(context.Background(), in, nil)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			with, unjoined, without := decide(2), decide(1), decide(0)
			if string(with) != string(without) {
				t.Fatalf("with Go's facts:\n%s\nwithout:\n%s", with, without)
			}
			if string(with) != string(unjoined) {
				t.Fatalf("with Go's facts:\n%s\nwithout tagTargets:\n%s", with, unjoined)
			}
			var dec struct {
				Denials []any `json:"denials"`
			}
			if err := json.Unmarshal(with, &dec); err != nil {
				t.Fatal(err)
			}
			t.Logf("%d denials", len(dec.Denials))
			denied += len(dec.Denials)
		})
	}
	if denied == 0 {
		t.Fatal("no alteration was denied: the comparison proves nothing")
	}
}

// recordedFileTags is a recorded input's input.enforcement.fileTags.
func recordedFileTags(t *testing.T, doc map[string]any) map[string][]string {
	raw, err := json.Marshal(doc["enforcement"].(map[string]any)["fileTags"])
	if err != nil {
		t.Fatal(err)
	}
	var out map[string][]string
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
