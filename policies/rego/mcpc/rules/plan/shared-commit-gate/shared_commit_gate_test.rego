package mcpc.rules.plan["shared-commit-gate_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["shared-commit-gate"] as rule

_submit(gates) := fixtures.with_input({
	"verb": "submit_execution_plan",
	"submission": {"nodes": [{"nodeId": sprintf("commit-%d", [i]), "kind": "side_effect", "commitGateId": g} | some i, g in gates]},
})

test_success_own_gates if {
	count(rule.report) == 0 with input as _submit(["g1", "g2"])
}

test_fail_shared_gate if {
	r := rule.report with input as _submit(["g1", "g2", "g1"])
	r == {{
		"code": "PLAN_GRAPH_INVALID",
		"message": "commitGateId \"g1\" is used by nodes[0] and nodes[2]",
		"path": "args.planGraph.nodes[2].commitGateId",
		"remediation": "Give every side_effect node a commitGateId of its own.",
		"rule": "mcpc.rules.plan[\"shared-commit-gate\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}
