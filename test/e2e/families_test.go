package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/protocol"
)

// familiesWorkspace is internal/graph's Angular workspace (MigrationRules
// approved, candidate, unknown and no_analog; the SDF components.d.ts; a
// grounded and an ungrounded prose policy in docs/ui-guidelines.md) with
// two validation commands, a valid human override carrying a plan_rule and
// an override that fails its schema.
func familiesWorkspace(t *testing.T) string {
	t.Helper()
	ws := graphWorkspace(t)
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(ws, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".ai/config/repo.json", `{"validation": {"commands": {
		"unit": {"argv": ["true"], "timeoutSec": 10},
		"e2e": {"argv": ["true"], "timeoutSec": 10}}}}`)
	write(".ai/memory/overrides/orders-e2e.json", `{
		"id": "mem-orders-e2e", "enforcementType": "plan_rule", "domainAnchorIds": ["src/app/orders"],
		"note": "a reviewer found template migrations in orders shipped without the e2e suite",
		"planRule": {
			"condition": {"fileGlobs": ["src/app/orders/**"], "strategyIds": ["migration_adp_to_sdf"]},
			"requiredSteps": [{"kind": "validate", "commandId": "e2e"}],
			"denyCode": "PLAN_VERIFICATION_WEAK",
			"message": "orders template migrations run the e2e suite"
		}}`)
	write(".ai/memory/overrides/bad.json", `{"id": "mem-bad", "enforcementType": "plan_rule"}`)
	return ws
}

func policiesOf(r *protocol.TurnResponse, kind string) []map[string]any {
	raw, _ := json.Marshal(r.ContextPack["policies"])
	var all []map[string]any
	_ = json.Unmarshal(raw, &all)
	var out []map[string]any
	for _, p := range all {
		if p["kind"] == kind {
			out = append(out, p)
		}
	}
	return out
}

func byID(list []map[string]any, id string) map[string]any {
	for _, p := range list {
		if p["id"] == id {
			return p
		}
	}
	return nil
}

// TestDomainPolicyFamilies drives the migration-rule, grounding, contract
// and memory plan_rule families end to end over stdio.
func TestDomainPolicyFamilies(t *testing.T) {
	t.Setenv("MCPC_NOW", "2026-11-25T00:00:00Z")
	ws := familiesWorkspace(t)
	a := startServer(t, ws)
	init := a.initialize("Migrate adp-alert and adp-button in the order detail template to SDF", "adp-alert", "adp-button")
	target := "src/app/orders/detail/order-detail.component.html"
	if !slices.Contains(packFiles(init), target) {
		t.Fatalf("pack lacks %s: %v", target, packFiles(init))
	}
	if id, _ := init.Strategy["strategyId"].(string); id != "migration_adp_to_sdf" {
		t.Fatalf("strategy %v", init.Strategy["strategyId"])
	}

	// The pack lists the MigrationRules in scope with status and mappings.
	rules := policiesOf(init, "MigrationRule")
	alert, button := byID(rules, "mig-adp-alert"), byID(rules, "mig-adp-button")
	if alert == nil || alert["status"] != "approved" || alert["toTag"] != "sdf-alert" || button == nil || button["status"] != "candidate" {
		t.Fatalf("pack MigrationRules: %v", rules)
	}
	if m, _ := alert["propMappings"].(map[string]any); m["type"] != "severity" {
		t.Errorf("mig-adp-alert propMappings: %v", alert["propMappings"])
	}
	// Grounding: which prose policy can deny, which is advisory, and why.
	var grounded, advisory map[string]any
	var enforceable []string
	for _, p := range policiesOf(init, "ProsePolicy") {
		if p["enforceable"] == true {
			enforceable = append(enforceable, p["id"].(string))
		}
		text, _ := p["text"].(string)
		switch {
		case strings.Contains(text, "Status messages must use `sdf-alert`"):
			grounded = p
		case strings.Contains(text, "sdf-data-grid"):
			advisory = p
		}
	}
	if grounded == nil || grounded["enforceable"] != true || !strings.Contains(grounded["why"].(string), "grounded by") {
		t.Fatalf("grounded prose policy: %v", grounded)
	}
	if advisory == nil || advisory["enforceable"] != false || !strings.HasPrefix(advisory["why"].(string), "advisory") {
		t.Fatalf("ungrounded prose policy: %v", advisory)
	}
	proseID := grounded["id"].(string)
	// Obligations say what the plan must cite.
	obls, _ := json.Marshal(init.PlanGraphSchema["policyObligations"])
	if !strings.Contains(string(obls), `"policy":"mig-adp-button"`) || !strings.Contains(string(obls), proseID) {
		t.Errorf("policyObligations: %s", obls)
	}

	// The override was ingested before memories were read; the bad one is
	// reported and left in place.
	if _, err := os.Stat(filepath.Join(ws, ".ai/memory/overrides/orders-e2e.json.processed")); err != nil {
		t.Errorf("valid override not renamed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, ".ai/memory/overrides/bad.json")); err != nil {
		t.Errorf("bad override moved: %v", err)
	}
	records, _ := os.ReadFile(filepath.Join(ws, ".ai/memory/records.json"))
	if !strings.Contains(string(records), `"mem-orders-e2e"`) || strings.Contains(string(records), "mem-bad") {
		t.Errorf("records.json: %s", records)
	}
	mems, _ := json.Marshal(init.ContextPack["memories"])
	if !strings.Contains(string(mems), "mem-orders-e2e") {
		t.Errorf("pack memories: %s", mems)
	}
	reported := false
	for _, adv := range init.Advisories {
		if adv.Code == "PACK_INSUFFICIENT" && strings.Contains(adv.Message, ".ai/memory/overrides/bad.json") {
			reported = true
		}
	}
	if !reported {
		t.Errorf("the bad override is not reported: %+v", init.Advisories)
	}

	env := envelopeOf(init)
	hook := func(cmd string) []any {
		return []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": cmd}}}
	}
	plan := func(mutate func(change map[string]any, nodes *[]any)) map[string]any {
		p := map[string]any{}
		for k, v := range env {
			p[k] = v
		}
		p["knowledgeStrategyReasons"] = []any{map[string]any{"reason": "adp lexemes", "evidenceRefs": []string{"lexeme:adp-alert"}}}
		p["evidencePolicy"] = map[string]any{"minRequirementSources": 1}
		p["planFingerprint"] = "families-1"
		p["sourceTraceRefs"] = []string{}
		change := map[string]any{
			"nodeId": "change-detail", "kind": "change", "dependsOn": []string{}, "atomicityBoundary": "file",
			"expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "revert", "operation": "modify",
			"targetFile": target, "targetSymbols": []string{"adp-alert", "adp-button"},
			"whyThisFile":       "it renders adp-alert and adp-button",
			"editIntent":        "replace adp-alert with sdf-alert and adp-button with sdf-button",
			"citations":         []any{map[string]any{"source": "prompt", "ref": "originalPrompt"}},
			"codeEvidence":      []any{map[string]any{"file": target, "startLine": 1, "endLine": 3}},
			"verificationHooks": hook("unit"),
			"policyRefs":        append([]string{"mig-adp-alert", "mig-adp-button"}, enforceable...),
			"lowEvidenceGuard":  true, "uncertaintyNote": "the adp-button mapping is a candidate", "requiresHumanReview": true,
			"componentMapping": map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "props": []string{"severity", "heading"}},
		}
		validate := func(id, cmd string) map[string]any {
			return map[string]any{
				"nodeId": id, "kind": "validate", "dependsOn": []string{"change-detail"}, "atomicityBoundary": "file",
				"expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "fix", "verificationHooks": hook(cmd),
				"mapsToNodeIds": []string{"change-detail"}, "successCriteria": "passes",
			}
		}
		nodes := []any{change, validate("validate-unit", "unit"), validate("validate-e2e", "e2e")}
		mutate(change, &nodes)
		p["nodes"] = nodes
		return p
	}
	submit := func(p map[string]any) *protocol.TurnResponse {
		return a.turn("submit_execution_plan", map[string]any{"planGraph": p})
	}
	for _, tc := range []struct {
		note   string
		mutate func(change map[string]any, nodes *[]any)
		code   string
		says   string
	}{
		{"an approved rule not cited", func(c map[string]any, _ *[]any) {
			c["policyRefs"] = append([]string{"mig-adp-button"}, enforceable...)
		}, "PLAN_POLICY_VIOLATION", "does not cite MigrationRule mig-adp-alert"},
		{"a candidate rule without the guard", func(c map[string]any, _ *[]any) {
			delete(c, "lowEvidenceGuard")
		}, "PLAN_EVIDENCE_INSUFFICIENT", "candidate MigrationRule mig-adp-button"},
		{"a prop the contract does not declare", func(c map[string]any, _ *[]any) {
			c["componentMapping"] = map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "props": []string{"message"}}
		}, "PLAN_POLICY_VIOLATION", "uses prop message on sdf-alert"},
		{"a required prop the mapping does not set", func(c map[string]any, _ *[]any) {
			c["componentMapping"] = map[string]any{"fromTag": "adp-alert", "toTag": "sdf-alert", "props": []string{"severity"}}
		}, "PLAN_POLICY_VIOLATION", "maps to sdf-alert without its required prop heading"},
		{"a grounded prose policy not cited", func(c map[string]any, _ *[]any) {
			c["policyRefs"] = slices.DeleteFunc(append([]string{"mig-adp-alert", "mig-adp-button"}, enforceable...), func(s string) bool { return s == proseID })
		}, "PLAN_POLICY_VIOLATION", "grounded policy " + proseID},
		{"the override's plan_rule unmet", func(_ map[string]any, nodes *[]any) {
			*nodes = (*nodes)[:2]
		}, "PLAN_VERIFICATION_WEAK", "memory rule mem-orders-e2e requires a validate step with commandId e2e"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			r := submit(plan(tc.mutate))
			mustDeny(t, r, tc.code)
			found := false
			for _, d := range r.Denials {
				found = found || (d.Code == tc.code && strings.Contains(d.Message, tc.says))
			}
			if !found {
				t.Errorf("no %s saying %q: %v", tc.code, tc.says, r.DenyReasons)
			}
		})
	}
	// The ungrounded policy names sdf-data-grid; a plan touching it is not
	// denied for not citing it, and the whole plan is accepted.
	r := submit(plan(func(c map[string]any, _ *[]any) {
		c["editIntent"] = c["editIntent"].(string) + " next to an sdf-data-grid"
	}))
	mustAllow(t, r)
	// Seed 003: 0.5 x the default self score 0.5 + 0.3 x validator 1 + 0.2 x
	// heuristics 0 (the only change node takes the low-evidence path) = 0.55.
	conf, _ := r.Result["confidence"].(map[string]any)
	if conf["outcome"] != "retry" || conf["score"] != 0.55 {
		t.Errorf("confidence of the accepted plan: %v", r.Result["confidence"])
	}
}

// TestUnknownMigrationRuleDoesNotBlock: a template using a tag with an
// unknown mapping and one with no analog migrates once the unknown is
// escalated and the fallback stated; without them it is refused.
func TestUnknownMigrationRuleDoesNotBlock(t *testing.T) {
	ws := familiesWorkspace(t)
	if err := os.Remove(filepath.Join(ws, ".ai/memory/overrides/orders-e2e.json")); err != nil {
		t.Fatal(err)
	}
	a := startServer(t, ws)
	init := a.initialize("Migrate the adp-card, adp-page-header and adp-button tags of the orders grid to SDF", "adp-card", "adp-page-header")
	target := "src/app/orders/grid/orders-grid.component.html"
	if !slices.Contains(packFiles(init), target) {
		t.Fatalf("pack lacks %s: %v", target, packFiles(init))
	}
	env := envelopeOf(init)
	var enforceable []string
	for _, p := range policiesOf(init, "ProsePolicy") {
		if p["enforceable"] == true {
			enforceable = append(enforceable, p["id"].(string))
		}
	}
	build := func(withEscalation bool) map[string]any {
		p := map[string]any{}
		for k, v := range env {
			p[k] = v
		}
		p["knowledgeStrategyReasons"] = []any{map[string]any{"reason": "adp lexemes", "evidenceRefs": []string{"lexeme:adp-card"}}}
		p["evidencePolicy"] = map[string]any{"minRequirementSources": 1}
		p["planFingerprint"] = "families-2"
		p["sourceTraceRefs"] = []string{}
		hooks := []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "unit"}}}
		change := map[string]any{
			"nodeId": "change-grid", "kind": "change", "dependsOn": []string{}, "atomicityBoundary": "file",
			"expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "revert", "operation": "modify",
			"targetFile": target, "targetSymbols": []string{"adp-button"}, "whyThisFile": "the grid template",
			"editIntent":        "replace adp-button with sdf-button; keep adp-card until its mapping is known",
			"citations":         []any{map[string]any{"source": "prompt", "ref": "originalPrompt"}},
			"codeEvidence":      []any{map[string]any{"file": target, "startLine": 1, "endLine": 10}},
			"verificationHooks": hooks,
			"policyRefs":        append([]string{"mig-adp-button", "mig-adp-card", "mig-adp-page-header"}, enforceable...),
			"lowEvidenceGuard":  false,
			"fallback":          "keep adp-page-header behind the app-page-header wrapper",
		}
		validate := map[string]any{
			"nodeId": "validate-grid", "kind": "validate", "dependsOn": []string{"change-grid"}, "atomicityBoundary": "file",
			"expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "fix", "verificationHooks": hooks,
			"mapsToNodeIds": []string{"change-grid"}, "successCriteria": "passes",
		}
		nodes := []any{change, validate}
		if withEscalation {
			// The candidate adp-button needs the guard on its node, the
			// unknown adp-card an escalate node.
			change["lowEvidenceGuard"], change["uncertaintyNote"], change["requiresHumanReview"] = true, "adp-button mapping is a candidate", true
			nodes = append(nodes, map[string]any{
				"nodeId": "escalate-card", "kind": "escalate", "dependsOn": []string{}, "atomicityBoundary": "none",
				"expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "ask the design system team",
				"policyRefs": []string{"mig-adp-card"}, "blockingReasons": []string{"no SDF mapping for adp-card"},
				"requestedEvidence": []any{map[string]any{"type": "artifact_fetch", "detail": "the SDF contract for adp-card"}},
			})
		}
		p["nodes"] = nodes
		return p
	}
	r := a.turn("submit_execution_plan", map[string]any{"planGraph": build(false)})
	mustDeny(t, r, "PLAN_EVIDENCE_INSUFFICIENT")
	if !strings.Contains(strings.Join(r.DenyReasons, "\n"), "mig-adp-card is unknown") {
		t.Errorf("want the unknown rule named: %v", r.DenyReasons)
	}
	r = a.turn("submit_execution_plan", map[string]any{"planGraph": build(true)})
	mustAllow(t, r)
}
