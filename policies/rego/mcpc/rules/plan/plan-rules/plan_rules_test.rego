package mcpc.rules.plan["plan-rules_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["plan-rules"] as rule

_memory := {
	"id": "mem-orders-e2e",
	"state": "approved",
	"enforcementType": "plan_rule",
	"planRule": {
		"condition": {"fileGlobs": ["src/**/*.html"], "strategyIds": ["migration_adp_to_sdf"], "tags": ["adp-alert"]},
		"requiredSteps": [{"kind": "validate", "commandId": "e2e"}],
		"denyCode": "PLAN_VERIFICATION_WEAK",
		"message": "template migrations run the e2e suite",
	},
}

_validate(command) := {
	"nodeId": "validate-1", "kind": "validate", "dependsOn": ["change-1"], "mapsToNodeIds": ["change-1"],
	"verificationHooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": command}}],
}

test_fail_required_step_missing_denies_with_its_code if {
	node := fixtures.change_node("change-1", {})
	r := rule.report with input as fixtures.plan_input([node, _validate("unit")], {"memories": [_memory]})
	r == {{
		"code": "PLAN_VERIFICATION_WEAK",
		"rule": "mcpc.rules.plan[\"plan-rules\"]",
		"message": "memory rule mem-orders-e2e requires a validate step with commandId e2e; the plan has none (template migrations run the e2e suite)",
		"path": "args.planGraph.nodes",
		"remediation": concat("", [
			"Add the steps the rule requires (its kind, with the named recipe and command in verificationHooks); ",
			"the pack's policies.memories names the rules in force.",
		]),
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_required_step_present if {
	node := fixtures.change_node("change-1", {})
	count(rule.report) == 0 with input as fixtures.plan_input([node, _validate("e2e")], {"memories": [_memory]})
}

test_success_condition_not_met if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts"})
	count(rule.report) == 0 with input as fixtures.plan_input([node, _validate("unit")], {"memories": [_memory]})
}

test_success_inactive_records_never_apply if {
	node := fixtures.change_node("change-1", {})
	pending := object.union(_memory, {"state": "pending"})
	expired := object.union(_memory, {"id": "mem-old", "expiresAt": "2026-11-01T00:00:00Z"})
	bad_time := object.union(_memory, {"id": "mem-bad", "expiresAt": "soon"})
	count(rule.report) == 0 with input as fixtures.plan_input([node, _validate("unit")], {"memories": [pending, expired, bad_time]})
}

test_success_unexpired_provisional_applies if {
	node := fixtures.change_node("change-1", {})
	provisional := object.union(_memory, {"state": "provisional", "expiresAt": "2026-12-01T00:00:00Z"})
	count(rule.report) == 1 with input as fixtures.plan_input([node, _validate("unit")], {"memories": [provisional]})
}
