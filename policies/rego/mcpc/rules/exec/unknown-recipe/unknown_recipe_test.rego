package mcpc.rules.exec["unknown-recipe_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["unknown-recipe"] as rule

test_fail_unknown_recipe if {
	r := rule.report with input as fixtures.with_input({
		"state": "PLAN_ACCEPTED",
		"plan": {
			"accepted": true,
			"started": false,
			"nodes": {
				"change-1": {
					"kind": "change",
					"targetFile": "src/a.ts",
					"status": "pending",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
				"change-2": {
					"kind": "change",
					"targetFile": "src/a.html",
					"status": "patched",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
				"validate-1": {
					"kind": "validate",
					"status": "pending",
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {"commandId": "unit"},
						},
						{
							"recipeId": "run_targeted_validation",
							"params": {"commandId": "e2e"},
						},
					],
					"mapsToNodeIds": [
						"change-1",
						"change-2",
					],
				},
				"validate-2": {
					"kind": "validate",
					"status": "pending",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
					"mapsToNodeIds": ["change-2"],
				},
				"se-1": {
					"kind": "side_effect",
					"status": "pending",
					"commitGateId": "gate-1",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
				"esc-1": {
					"kind": "escalate",
					"status": "pending",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
			},
		},
		"verb": "run_automation_recipe",
		"args": {
			"recipeId": "rm_rf",
			"planNodeId": "change-1",
		},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "recipe rm_rf is not one of replace_lexeme_in_file, run_targeted_validation",
		"path": "args.recipeId",
		"remediation": "Use a known recipeId: replace_lexeme_in_file or run_targeted_validation.",
		"rule": "mcpc.rules.exec[\"unknown-recipe\"]",
		"severity": "error",
		"suggestedVerb": "run_automation_recipe",
	}}
}

test_success_known_recipe if {
	r := rule.report with input as fixtures.with_input({
		"state": "PLAN_ACCEPTED",
		"plan": {
			"accepted": true,
			"started": false,
			"nodes": {
				"change-1": {
					"kind": "change",
					"targetFile": "src/a.ts",
					"status": "pending",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
				"change-2": {
					"kind": "change",
					"targetFile": "src/a.html",
					"status": "patched",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
				"validate-1": {
					"kind": "validate",
					"status": "pending",
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {"commandId": "unit"},
						},
						{
							"recipeId": "run_targeted_validation",
							"params": {"commandId": "e2e"},
						},
					],
					"mapsToNodeIds": [
						"change-1",
						"change-2",
					],
				},
				"validate-2": {
					"kind": "validate",
					"status": "pending",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
					"mapsToNodeIds": ["change-2"],
				},
				"se-1": {
					"kind": "side_effect",
					"status": "pending",
					"commitGateId": "gate-1",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
				"esc-1": {
					"kind": "escalate",
					"status": "pending",
					"verificationHooks": [],
					"mapsToNodeIds": [],
				},
			},
		},
		"verb": "run_automation_recipe",
		"args": {
			"recipeId": "replace_lexeme_in_file",
			"planNodeId": "change-1",
		},
	})
	count(r) == 0
}
