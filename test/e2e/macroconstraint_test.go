package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/protocol"
)

// TestMacroConstraintPlanRule: the graph's MacroConstraint seed row
// (mc-grid-no-table: a page with sdf-data-grid gets no adp-table) reaches
// policy as a plan_rule of the one enforcement shape: the pack lists it and
// says what the plan must not do, and the generic plan_rule rule denies a
// plan that adds adp-table to that page, while a plan that leaves it out is
// accepted.
func TestMacroConstraintPlanRule(t *testing.T) {
	t.Setenv("MCPC_NOW", "2026-11-25T00:00:00Z")
	ws := graphWorkspace(t)
	target := "src/app/orders/detail/order-detail.component.html"
	page, err := os.ReadFile(filepath.Join(ws, target))
	must(t, err)
	must(t, os.WriteFile(filepath.Join(ws, target), append(page, []byte("<sdf-data-grid></sdf-data-grid>\n")...), 0o644))
	submit := macroPlanSubmitter(t, ws, target, true)

	r := submit("add an adp-table of the order totals under the grid")
	mustDeny(t, r, "PLAN_POLICY_VIOLATION")
	found := false
	for _, d := range r.Denials {
		found = found || strings.Contains(d.Message, "graph rule mc-grid-no-table forbids adp-table on a page with sdf-data-grid")
	}
	if !found {
		t.Fatalf("no denial from the MacroConstraint: %v", r.DenyReasons)
	}

	r = submit("add a totals row to the sdf-data-grid")
	mustAllow(t, r)
}

// macroPlanSubmitter starts a server on ws, checks that initialize_work's
// pack holds target and lists mc-grid-no-table exactly when the page has
// the grid (gridOnPage), and returns a function that
// submits a plan of one change node on target with the given editIntent.
func macroPlanSubmitter(t *testing.T, ws, target string, gridOnPage bool) func(intent string) *protocol.TurnResponse {
	t.Helper()
	must(t, os.MkdirAll(filepath.Join(ws, ".ai/config"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".ai/config/repo.json"), []byte(`{"validation": {"commands": {"unit": {"argv": ["true"], "timeoutSec": 10}}}}`), 0o644))

	a := startServer(t, ws, "--no-warm")
	init := a.initialize("Show the order totals on the order detail page", "order-detail")
	if !slices.Contains(packFiles(init), target) {
		t.Fatalf("pack lacks %s: %v", target, packFiles(init))
	}
	mc := byID(policiesOf(init, "MacroConstraint"), "mc-grid-no-table")
	if onPage := mc != nil && mc["ifContains"] == "sdf-data-grid"; onPage != gridOnPage {
		t.Fatalf("the pack's MacroConstraints (grid on the page: %v): %v", gridOnPage, policiesOf(init, "MacroConstraint"))
	}
	var enforceable []string
	for _, p := range policiesOf(init, "ProsePolicy") {
		if p["enforceable"] == true {
			enforceable = append(enforceable, p["id"].(string))
		}
	}
	env := envelopeOf(init)
	plan := func(intent string) map[string]any {
		p := map[string]any{}
		for k, v := range env {
			p[k] = v
		}
		p["knowledgeStrategyReasons"] = []any{map[string]any{"reason": "the prompt names the page", "evidenceRefs": []string{target}}}
		p["evidencePolicy"] = map[string]any{"minRequirementSources": 1}
		p["planFingerprint"] = "macro-1"
		p["sourceTraceRefs"] = []string{}
		hooks := []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "unit"}}}
		p["nodes"] = []any{
			map[string]any{
				"nodeId": "change-detail", "kind": "change", "dependsOn": []string{}, "atomicityBoundary": "file",
				"expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "revert", "operation": "modify",
				"targetFile": target, "targetSymbols": []string{}, "whyThisFile": "it is the order detail page",
				"editIntent": intent, "citations": []any{map[string]any{"source": "prompt", "ref": "originalPrompt"}},
				"codeEvidence":      []any{map[string]any{"file": target, "startLine": 1, "endLine": 5}},
				"verificationHooks": hooks, "policyRefs": append([]string{}, enforceable...),
			},
			map[string]any{
				"nodeId": "validate-unit", "kind": "validate", "dependsOn": []string{"change-detail"}, "atomicityBoundary": "file",
				"expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "fix", "verificationHooks": hooks,
				"mapsToNodeIds": []string{"change-detail"}, "successCriteria": "passes",
			},
		}
		return p
	}
	return func(intent string) *protocol.TurnResponse {
		return a.turn("submit_execution_plan", map[string]any{"planGraph": plan(intent)})
	}
}

// TestMacroConstraintNamedTags (issue 17): a plan that adds both the
// constraint's tag (sdf-data-grid) and the tag it forbids (adp-table) to a
// page that uses neither is denied: the constraint is gathered by the tags
// the change nodes name, not only by those the target files already use. A
// plan that adds only the grid is accepted.
func TestMacroConstraintNamedTags(t *testing.T) {
	t.Setenv("MCPC_NOW", "2026-11-25T00:00:00Z")
	ws := graphWorkspace(t)
	target := "src/app/orders/detail/order-detail.component.html"
	page, err := os.ReadFile(filepath.Join(ws, target))
	must(t, err)
	if strings.Contains(string(page), "sdf-data-grid") || strings.Contains(string(page), "adp-table") {
		t.Fatalf("the page must use neither tag:\n%s", page)
	}
	submit := macroPlanSubmitter(t, ws, target, false)

	r := submit("add an sdf-data-grid of the order lines and an adp-table of the totals")
	mustDeny(t, r, "PLAN_POLICY_VIOLATION")
	found := false
	for _, d := range r.Denials {
		found = found || strings.Contains(d.Message, "graph rule mc-grid-no-table forbids adp-table on a page with sdf-data-grid")
	}
	if !found {
		t.Fatalf("no denial from the MacroConstraint: %v", r.DenyReasons)
	}

	r = submit("add an sdf-data-grid of the order lines")
	mustAllow(t, r)
}
