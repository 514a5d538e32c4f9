package mcpc.rules.plan["required-validation_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["required-validation"] as rule

_input(required, commands) := fixtures.with_input({
	"verb": "submit_execution_plan",
	"config": {
		"validationCommands": ["lint", "templates", "unit"],
		"validationCovers": {"templates": ["**/*.html"], "unit": ["src/**"]},
		"validationRequired": required,
		"evidencePolicy": {},
	},
	"submission": {"nodes": [
		{"nodeId": "change-ts", "kind": "change", "targetFile": "src/a.ts"},
		{"nodeId": "change-html", "kind": "change", "targetFile": "src/a.html"},
		{
			"nodeId": "validate-1", "kind": "validate", "mapsToNodeIds": ["change-ts", "change-html"],
			"verificationHooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": command}} | some command in commands],
		},
	]},
})

test_fail_required_command_left_out if {
	r := rule.report with input as _input(["templates"], ["unit"])
	r == {{
		"code": "PLAN_VERIFICATION_WEAK",
		"message": "change node \"change-html\": src/a.html must be validated by \"templates\", which this repository requires",
		"path": "args.planGraph.nodes[1].nodeId",
		"remediation": concat(" ", [
			"Add the required command to a validate node mapped to the change: a verificationHooks entry",
			"{recipeId: run_targeted_validation, params: {commandId: <the required id>}}.",
		]),
		"rule": "mcpc.rules.plan[\"required-validation\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

# lint has no covers: it is required for every change
test_fail_required_everywhere if {
	r := rule.report with input as _input(["lint"], ["unit", "templates"])
	{v.path | some v in r} == {"args.planGraph.nodes[0].nodeId", "args.planGraph.nodes[1].nodeId"}
}

test_success_required_command_run if {
	count(rule.report) == 0 with input as _input(["templates", "lint"], ["unit", "templates", "lint"])
}

test_success_nothing_required if {
	count(rule.report) == 0 with input as _input([], ["unit"])
}

# a hook on a validate node that does not map to the change does not count
test_fail_required_command_on_another_change if {
	base := _input(["unit"], ["templates"])
	extra := {
		"nodeId": "validate-2", "kind": "validate", "mapsToNodeIds": ["change-html"],
		"verificationHooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
	}
	r := rule.report with input as object.union(base, {"submission": {"nodes": array.concat(base.submission.nodes, [extra])}})
	{v.message | some v in r} == {"change node \"change-ts\": src/a.ts must be validated by \"unit\", which this repository requires"}
}
