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

# a graph MacroConstraint reaches the same rule as a plan_rule

_grid_page := {
	"macroConstraints": [{
		"id": "mc-grid-no-table", "type": "MacroConstraint", "ifContains": "sdf-data-grid",
		"forbid": ["adp-table"], "reason": "one grid per page", "file": ".ai/graph/seed/intents/ui.jsonl", "line": 3,
	}],
	"fileTags": {"src/a.html": ["sdf-data-grid", "adp-alert"], "src/b.html": ["adp-alert"]},
}

test_fail_macro_constraint_forbids_a_tag_on_its_page if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.html", "editIntent": "add an adp-table of totals under the grid"})
	r := rule.report with input as fixtures.plan_input([node, _validate("unit")], _grid_page)
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"plan-rules\"]",
		"message": "graph rule mc-grid-no-table forbids adp-table on a page with sdf-data-grid; change node change-1 names it (one grid per page)",
		"path": "args.planGraph.nodes[0]",
		"remediation": concat("", [
			"Add the steps the rule requires (its kind, with the named recipe and command in verificationHooks); ",
			"the pack's policies.memories names the rules in force.",
		]),
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_macro_constraint_when_the_node_adds_the_page_tag if {
	node := fixtures.change_node("change-1", {"targetFile": "src/b.html", "editIntent": "put an sdf-data-grid next to the adp-table"})
	r := rule.report with input as fixtures.plan_input([node, _validate("unit")], _grid_page)
	count(r) == 1
}

test_success_macro_constraint_other_page if {
	node := fixtures.change_node("change-1", {"targetFile": "src/b.html", "editIntent": "add an adp-table of totals"})
	count(rule.report) == 0 with input as fixtures.plan_input([node, _validate("unit")], _grid_page)
}

test_success_macro_constraint_migrating_the_tag_away if {
	enforcement := object.union(_grid_page, {"migrationRules": [{"id": "mig-adp-table", "fromTag": "adp-table", "toTag": "sdf-data-grid", "status": "approved"}]})
	node := fixtures.change_node("change-1", {
		"targetFile": "src/a.html", "editIntent": "replace adp-table with sdf-data-grid",
		"policyRefs": ["mig-adp-table"],
	})
	count(rule.report) == 0 with input as fixtures.plan_input([node, _validate("unit")], enforcement)
}

test_success_macro_constraint_tag_not_named if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.html", "editIntent": "change the grid's page size"})
	count(rule.report) == 0 with input as fixtures.plan_input([node, _validate("unit")], _grid_page)
}

test_success_memory_plan_rules_carry_no_forbidden_tags if {
	memory := object.union(_memory, {"id": "mem-no-tables", "planRule": {"requiredSteps": [], "forbiddenTags": ["adp-table"], "denyCode": "PLAN_POLICY_VIOLATION", "message": ""}})
	node := fixtures.change_node("change-1", {"targetFile": "src/b.html", "editIntent": "add an adp-table"})
	r := rule.report with input as fixtures.plan_input([node, _validate("unit")], {"memories": [memory]})
	count(r) == 0 # a memory plan_rule carries requiredSteps only: forbiddenTags are the graph's
}

# a plan_rule's tags hold on the tags Go's join (aggregates.tagTargets)
# says the change nodes' targets use
_tagged_rule := _conditioned("mem-alert-pages", {"tags": ["adp-alert"]})

_joined(tag_targets) := object.union(
	fixtures.plan_input([fixtures.change_node("change-1", {"targetFile": "src/x.html"}), _validate("unit")], {"memories": [_tagged_rule], "fileTags": {}}),
	{"submissionFacts": {"cycleNodes": [], "nodeTags": [[], null], "namedTags": [], "aggregates": {
		"kindIndexes": {"change": [0], "validate": [1]}, "changeTargets": ["src/x.html"],
		"dependencies": ["change-1"], "hooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
		"citations": [{"source": "prompt", "ref": "originalPrompt"}],
		"changeEvidence": [{"file": "src/a.html", "startLine": 1}], "componentMappings": [],
		"tagNodes": {}, "targetNodes": {"src/x.html": [0]}, "refNodes": {}, "untargeted": [],
		"trueNodes": {"lowEvidenceGuard": [], "requiresHumanReview": []},
		"textNodes": {"uncertaintyNote": [], "fallback": []},
		"tagTargets": tag_targets,
	}}},
)

test_fail_plan_rule_tag_on_a_target_tag_targets_reports if {
	r := rule.report with input as _joined({"adp-alert": ["src/x.html"]})
	r == {{
		"code": "PLAN_VERIFICATION_WEAK",
		"rule": "mcpc.rules.plan[\"plan-rules\"]",
		"message": "memory rule mem-alert-pages requires a validate step with commandId e2e; the plan has none (template migrations run the e2e suite)",
		"path": "args.planGraph.nodes",
		"remediation": concat("", [
			"Add the steps the rule requires (its kind, with the named recipe and command in verificationHooks); ",
			"the pack's policies.memories names the rules in force.",
		]),
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_plan_rule_tag_no_target_file_uses if {
	count(rule.report) == 0 with input as _joined({"sdf-alert": ["src/x.html"]})
}

# records whose conditions leave fields out, list values the plan meets or
# not, or list nothing: the ones that apply are those the index of the
# records' conditions says, and each denies
_conditioned(id, condition) := object.union(object.remove(_memory, ["planRule"]), {
	"id": id,
	"planRule": object.union(object.remove(_memory.planRule, ["condition"]), {"condition": condition}),
})

test_fail_indexed_conditions_pick_the_rules_that_apply if {
	memories := [
		_conditioned("mem-any", {}),
		_conditioned("mem-docs", {"fileGlobs": ["docs/**"]}),
		_conditioned("mem-neutral", {"strategyIds": ["neutral"]}),
		_conditioned("mem-no-tags", {"tags": []}),
		_conditioned("mem-alert-migration", {"strategyIds": ["migration_adp_to_sdf"], "tags": ["adp-alert"], "fileGlobs": ["src/*.html", "lib/**"]}),
		object.union(_conditioned("mem-pending", {}), {"state": "pending"}),
	]
	doc := fixtures.plan_input([fixtures.change_node("change-1", {}), _validate("unit")], {"memories": memories})
	r := rule.report with input as doc
	{d.message | some d in r} == {
		"memory rule mem-any requires a validate step with commandId e2e; the plan has none (template migrations run the e2e suite)",
		"memory rule mem-alert-migration requires a validate step with commandId e2e; the plan has none (template migrations run the e2e suite)",
	}
	conditions := data.mcpc.lib.enforcement.plan_rule_conditions with input as doc
	conditions.tags == {"free": {0, 1, 2, 5}, "by": {"adp-alert": {4}}}
	conditions.fileGlobs.by == {"docs/**": {1}, "src/*.html": {4}, "lib/**": {4}}
}
