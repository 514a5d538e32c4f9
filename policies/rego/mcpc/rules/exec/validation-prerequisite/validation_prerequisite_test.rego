package mcpc.rules.exec["validation-prerequisite_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["validation-prerequisite"] as rule

test_fail_change_not_patched if {
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
			"recipeId": "run_targeted_validation",
			"planNodeId": "validate-1",
			"params": {"commandId": "unit"},
		},
	})
	r == {{
		"code": "EXEC_PREREQUISITE_UNMET",
		"message": "validate node \"validate-1\" maps to change-1, which is pending, not patched",
		"path": "args.planNodeId",
		"remediation": "Apply the patches of the mapped change nodes first (apply_code_patch), then run the validation.",
		"rule": "mcpc.rules.exec[\"validation-prerequisite\"]",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_success_changes_patched if {
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
			"recipeId": "run_targeted_validation",
			"planNodeId": "validate-2",
			"params": {"commandId": "unit"},
		},
	})
	count(r) == 0
}
