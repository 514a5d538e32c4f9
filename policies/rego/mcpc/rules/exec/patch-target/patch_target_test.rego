package mcpc.rules.exec["patch-target_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["patch-target"] as rule

test_fail_other_file if {
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
		"verb": "apply_code_patch",
		"args": {
			"planNodeId": "change-2",
			"targetFile": "src/a.ts",
			"edits": [],
		},
	})
	r == {{
		"code": "PLAN_SCOPE_VIOLATION",
		"message": "src/a.ts is not the target of change node \"change-2\" (src/a.html)",
		"path": "args.targetFile",
		"remediation": "Patch the targetFile of the change node named by planNodeId, or submit a plan with a change node for this file.",
		"rule": "mcpc.rules.exec[\"patch-target\"]",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_success_node_target if {
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
		"verb": "apply_code_patch",
		"args": {
			"planNodeId": "change-1",
			"targetFile": "src/a.ts",
			"edits": [],
		},
	})
	count(r) == 0
}
