package mcpc.rules.exec["side-effect-validated_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["side-effect-validated"] as rule

_execute(change, validate) := fixtures.with_input({
	"verb": "execute_gated_side_effect",
	"state": "PLAN_ACCEPTED",
	"args": {"planNodeId": "commit"},
	"plan": {"accepted": true, "started": true, "nodes": {
		"change-1": {"kind": "change", "status": change, "mapsToNodeIds": []},
		"validate-1": {"kind": "validate", "status": validate, "mapsToNodeIds": ["change-1"]},
		"commit": {"kind": "side_effect", "status": "pending", "commitGateId": "g1", "mapsToNodeIds": []},
	}},
})

test_success_after_validation if {
	count(rule.report) == 0 with input as _execute("patched", "passed")
}

test_fail_before_validation if {
	r := rule.report with input as _execute("patched", "pending")
	r == {{
		"code": "EXEC_PREREQUISITE_UNMET",
		"message": "side_effect node \"commit\" waits for validate-1 (pending)",
		"path": "args.planNodeId",
		"remediation": "Patch every change node and run every validation until it passes (progress lists what remains), then execute the side effect.",
		"rule": "mcpc.rules.exec[\"side-effect-validated\"]",
		"severity": "error",
		"suggestedVerb": "run_automation_recipe",
	}}
}

test_fail_before_the_patch if {
	r := rule.report with input as _execute("pending", "pending")
	some v in r
	v.message == "side_effect node \"commit\" waits for change-1 (pending), validate-1 (pending)"
}
