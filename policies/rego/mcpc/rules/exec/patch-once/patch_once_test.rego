package mcpc.rules.exec["patch-once_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["patch-once"] as rule

_patch(change_status, validation_statuses) := fixtures.with_input({
	"verb": "apply_code_patch",
	"state": "PLAN_ACCEPTED",
	"args": {"planNodeId": "change-1", "targetFile": "src/a.ts", "edits": []},
	"plan": {
		"accepted": true,
		"started": true,
		"nodes": object.union(
			{"change-1": {"kind": "change", "targetFile": "src/a.ts", "status": change_status, "mapsToNodeIds": []}},
			{sprintf("validate-%d", [i]): {"kind": "validate", "status": s, "mapsToNodeIds": ["change-1"]} |
				some i, s in validation_statuses
			},
		),
	},
})

test_success_pending_node if {
	count(rule.report) == 0 with input as _patch("pending", ["pending"])
}

test_success_correction_after_a_failed_validation if {
	count(rule.report) == 0 with input as _patch("patched", ["failed", "passed"])
}

test_fail_patched_again_while_validations_pend if {
	r := rule.report with input as _patch("patched", ["pending"])
	r == {{
		"code": "EXEC_PREREQUISITE_UNMET",
		"message": "change node \"change-1\" is patched and its validations are pending; a patch applies once, and again only after a validation of it fails",
		"path": "args.planNodeId",
		"remediation": "Run the node's validation (run_automation_recipe run_targeted_validation); patch the node again only after that validation fails.",
		"rule": "mcpc.rules.exec[\"patch-once\"]",
		"severity": "error",
		"suggestedVerb": "run_automation_recipe",
	}}
}

test_fail_patched_again_after_its_validation_passed if {
	r := rule.report with input as _patch("patched", ["passed"])
	some v in r
	v.message == "change node \"change-1\" is patched and its validations are passed; a patch applies once, and again only after a validation of it fails"
}

test_fail_correction_while_a_validation_runs if {
	r := rule.report with input as _patch("patched", ["failed", "running"])
	some v in r
	v.message == "change node \"change-1\" is patched and its validations are failed, running; a patch applies once, and again only after a validation of it fails"
}

test_fail_patched_node_without_validations if {
	r := rule.report with input as _patch("patched", [])
	some v in r
	v.message == "change node \"change-1\" is patched and its validations are none; a patch applies once, and again only after a validation of it fails"
}
