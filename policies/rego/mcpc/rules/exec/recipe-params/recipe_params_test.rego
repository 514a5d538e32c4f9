package mcpc.rules.exec["recipe-params_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["recipe-params"] as rule

_remediation := concat(" ", [
	"Send the recipe's params as policies/data/recipes.json declares them;",
	"for replace_lexeme_in_file, a lexeme present in the node's target file",
	"as a whole word and a different replacement.",
])

_denial(message, path) := {
	"code": "RECIPE_PARAMS_INVALID",
	"message": message,
	"path": path,
	"remediation": _remediation,
	"rule": "mcpc.rules.exec[\"recipe-params\"]",
	"severity": "error",
}

_plan := {"accepted": true, "started": false, "nodes": {"change-1": {
	"kind": "change", "targetFile": "src/a.ts", "status": "pending",
	"verificationHooks": [], "mapsToNodeIds": [],
}}}

_lexeme(params, occurrences) := fixtures.with_input({
	"state": "PLAN_ACCEPTED",
	"verb": "run_automation_recipe",
	"plan": _plan,
	"args": {"recipeId": "replace_lexeme_in_file", "planNodeId": "change-1", "params": params},
	"recipe": {"targetFile": "src/a.ts", "occurrences": occurrences},
})

test_fail_missing_replacement if {
	r := rule.report with input as _lexeme({"lexeme": "total"}, 2)
	r == {_denial("replace_lexeme_in_file needs params.replacement", "args.params.replacement")}
}

test_fail_unknown_param if {
	r := rule.report with input as _lexeme({"lexeme": "total", "replacement": "sum", "regex": true}, 2)
	r == {_denial(
		"replace_lexeme_in_file takes no params.regex (it takes lexeme, replacement, targetFile)",
		"args.params.regex",
	)}
}

test_fail_multiline_lexeme if {
	r := rule.report with input as _lexeme({"lexeme": "a\nb", "replacement": "c"}, 0)
	r == {
		_denial("params.lexeme spans lines", "args.params.lexeme"),
		_denial("src/a.ts holds no whole-word occurrence of \"a\\nb\"", "args.params.lexeme"),
	}
}

test_fail_same_replacement if {
	r := rule.report with input as _lexeme({"lexeme": "total", "replacement": "total"}, 2)
	r == {_denial("params.replacement equals params.lexeme: the recipe would change nothing", "args.params.replacement")}
}

test_fail_no_occurrence if {
	r := rule.report with input as _lexeme({"lexeme": "total", "replacement": "sum"}, 0)
	r == {_denial("src/a.ts holds no whole-word occurrence of \"total\"", "args.params.lexeme")}
}

test_fail_other_file if {
	r := rule.report with input as object.union(_lexeme({"lexeme": "total", "replacement": "sum", "targetFile": "src/b.ts"}, 1), {"paths": {"targetFile": {"raw": "src/b.ts", "canonical": "src/b.ts", "valid": true}}})
	r == {_denial("src/b.ts is not the target of change node \"change-1\" (src/a.ts)", "args.params.targetFile")}
}

test_fail_validation_without_command if {
	r := rule.report with input as fixtures.with_input({
		"verb": "run_automation_recipe",
		"args": {"recipeId": "run_targeted_validation", "planNodeId": "validate-1", "params": {}},
	})
	r == {_denial("run_targeted_validation needs params.commandId", "args.params.commandId")}
}

test_success_lexeme if {
	count(rule.report) == 0 with input as _lexeme({"lexeme": "total", "replacement": "sum"}, 2)
}

test_success_validation if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "run_automation_recipe",
		"args": {"recipeId": "run_targeted_validation", "planNodeId": "validate-1", "params": {"commandId": "unit"}},
	})
}
