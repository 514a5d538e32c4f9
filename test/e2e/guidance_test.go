package e2e

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestPlanGuidanceIsWhatIsEnforced: what initialize_work tells the agent a
// plan must hold (planGraphSchema) comes from the data and configuration
// the plan rules enforce. A bundle whose table requires one more field of
// change nodes, and a configuration that raises one evidence minimum, show
// up in the response, and a plan is judged by exactly that.
func TestPlanGuidanceIsWhatIsEnforced(t *testing.T) {
	bundle := t.TempDir()
	must(t, os.CopyFS(bundle, os.DirFS(policiesDir())))
	tables := filepath.Join(bundle, "data", "plangraph.json")
	raw, err := os.ReadFile(tables)
	must(t, err)
	changed := strings.Replace(string(raw), `"verificationHooks"
        ],`, `"verificationHooks",
          "riskNote"
        ],`, 1)
	if changed == string(raw) {
		t.Fatal("the change node fields of plangraph.json were not found")
	}
	must(t, os.Chmod(tables, 0o644))
	must(t, os.WriteFile(tables, []byte(changed), 0o644))
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(`{"evidencePolicy": {"minCodeEvidenceSources": 2}}`), 0o644))

	a := startServer(t, ws, "--bundle", bundle)
	init := a.initialize(demo.Prompt, "adp-alert")
	schema := init.PlanGraphSchema
	required, _ := schema["requiredFields"].(map[string]any)
	change, _ := required["change"].([]any)
	if !slices.Contains(change, any("riskNote")) {
		t.Errorf("requiredFields.change = %v, want riskNote among them", change)
	}
	// The configured minimum over the default policy, as evidence-minima
	// applies it: not the configured object alone.
	want := map[string]any{"minRequirementSources": 1.0, "minCodeEvidenceSources": 2.0, "minDistinctSources": 2.0, "allowSingleSourceWithGuard": true}
	if !reflect.DeepEqual(schema["evidencePolicy"], want) {
		t.Errorf("evidencePolicy = %v, want %v", schema["evidencePolicy"], want)
	}

	plan := demo.Plan(envelopeOf(init), true)
	r := a.turn("submit_execution_plan", map[string]any{"planGraph": plan})
	mustDenyAt(t, r, "args.planGraph.nodes[0].riskNote", "PLAN_MISSING_REQUIRED_FIELDS")
	said := false
	for _, d := range r.Denials {
		said = said || d.Code == "PLAN_EVIDENCE_INSUFFICIENT" && strings.Contains(d.Message, "requires 2")
	}
	if !said {
		t.Errorf("no PLAN_EVIDENCE_INSUFFICIENT for the stated minimum of 2: %v", r.DenyReasons)
	}

	node := plan["nodes"].([]any)[0].(map[string]any)
	node["riskNote"] = "template only"
	node["codeEvidence"] = append(node["codeEvidence"].([]any), map[string]any{"file": demo.Target, "startLine": 1, "endLine": 2})
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
}
