package mcpc.rules.exec["artifact-refs_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["artifact-refs"] as rule

test_fail_foreign_refs if {
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
			"artifactBundleRef": ".ai/tmp/work/work-2/artifacts/x",
			"diffSummaryRef": ".ai/tmp/work/work-1/../work-2/d.json",
		},
	})
	r == {
		{
			"code": "PLAN_SCOPE_VIOLATION",
			"message": "artifactBundleRef .ai/tmp/work/work-2/artifacts/x is not inside .ai/tmp/work/work-1/",
			"path": "args.artifactBundleRef",
			"remediation": "Pass the artifactBundleRef and diffSummaryRef returned by apply_code_patch for this work, or omit them.",
			"rule": "mcpc.rules.exec[\"artifact-refs\"]",
			"severity": "error",
			"suggestedVerb": "run_automation_recipe",
		},
		{
			"code": "PLAN_SCOPE_VIOLATION",
			"message": "diffSummaryRef .ai/tmp/work/work-1/../work-2/d.json is not inside .ai/tmp/work/work-1/",
			"path": "args.diffSummaryRef",
			"remediation": "Pass the artifactBundleRef and diffSummaryRef returned by apply_code_patch for this work, or omit them.",
			"rule": "mcpc.rules.exec[\"artifact-refs\"]",
			"severity": "error",
			"suggestedVerb": "run_automation_recipe",
		},
	}
}

test_success_own_refs if {
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
			"artifactBundleRef": ".ai/tmp/work/work-1/artifacts/validate-2/",
			"diffSummaryRef": ".ai/tmp/work/work-1/artifacts/change-2/diff.summary.json",
		},
	})
	count(r) == 0
}
