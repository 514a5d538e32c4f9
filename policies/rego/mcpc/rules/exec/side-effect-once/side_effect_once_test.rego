package mcpc.rules.exec["side-effect-once_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["side-effect-once"] as rule

_execute(status) := fixtures.with_input({
	"verb": "execute_gated_side_effect",
	"state": "PLAN_ACCEPTED",
	"args": {"planNodeId": "commit"},
	"plan": {"accepted": true, "started": true, "nodes": {"commit": {
		"kind": "side_effect",
		"status": status,
		"commitGateId": "release-gate",
		"mapsToNodeIds": [],
	}}},
})

test_success_pending_side_effect if {
	count(rule.report) == 0 with input as _execute("pending")
}

test_fail_executed_side_effect if {
	r := rule.report with input as _execute("executed")
	r == {{
		"code": "EXEC_SIDE_EFFECT_COLLISION",
		"message": "side_effect node \"commit\" is executed: it runs once",
		"path": "args.planNodeId",
		"remediation": "The side effect has run; its result is in the node's artifact bundle. Go on with the nodes that remain, or signal_task_complete when none do.",
		"rule": "mcpc.rules.exec[\"side-effect-once\"]",
		"severity": "error",
		"suggestedVerb": "signal_task_complete",
	}}
}
