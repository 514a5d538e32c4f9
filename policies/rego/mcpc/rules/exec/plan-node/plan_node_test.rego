package mcpc.rules.exec["plan-node_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["plan-node"] as rule

test_fail_patch_validate_node if {
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
			"planNodeId": "validate-1",
			"targetFile": "src/a.ts",
			"edits": [],
		},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "planNodeId \"validate-1\" is a validate node; apply_code_patch needs a change node",
		"path": "args.planNodeId",
		"remediation": "Pass the nodeId of an accepted plan node of the right kind; progress and the accepted plan list them.",
		"rule": "mcpc.rules.exec[\"plan-node\"]",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_fail_unknown_node if {
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
			"planNodeId": "ghost",
			"targetFile": "src/a.ts",
			"edits": [],
		},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "planNodeId ghost is not a node of the accepted plan",
		"path": "args.planNodeId",
		"remediation": "Pass the nodeId of an accepted plan node of the right kind; progress and the accepted plan list them.",
		"rule": "mcpc.rules.exec[\"plan-node\"]",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_fail_no_accepted_plan if {
	r := rule.report with input as fixtures.with_input({
		"verb": "escalate",
		"args": {
			"need": "x",
			"planNodeId": "esc-1",
		},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "planNodeId esc-1: no plan has been accepted for this work",
		"path": "args.planNodeId",
		"remediation": "Pass the nodeId of an accepted plan node of the right kind; progress and the accepted plan list them.",
		"rule": "mcpc.rules.exec[\"plan-node\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_recipe_on_change_node if {
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
			"planNodeId": "change-1",
			"params": {"commandId": "unit"},
		},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "planNodeId \"change-1\" is a change node; run_automation_recipe needs a validate node",
		"path": "args.planNodeId",
		"remediation": "Pass the nodeId of an accepted plan node of the right kind; progress and the accepted plan list them.",
		"rule": "mcpc.rules.exec[\"plan-node\"]",
		"severity": "error",
		"suggestedVerb": "run_automation_recipe",
	}}
}

test_success_escalate_without_node if {
	r := rule.report with input as fixtures.with_input({
		"verb": "escalate",
		"args": {"need": "x"},
	})
	count(r) == 0
}

test_success_escalate_node if {
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
		"verb": "escalate",
		"args": {
			"need": "x",
			"planNodeId": "esc-1",
		},
	})
	count(r) == 0
}

test_success_patch_change_node if {
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
