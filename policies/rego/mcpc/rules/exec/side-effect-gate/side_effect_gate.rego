# METADATA
# title: Side effect gate
# description: |
#   execute_gated_side_effect runs a side_effect node only when a person
#   approved its commitGateId (input.gates.approved, mcpc gate approve).
# custom:
#   code: EXEC_UNGATED_SIDE_EFFECT
#   remediation: >-
#     Ask a person to approve the node's commit gate (mcpc gate approve), then call
#     execute_gated_side_effect again.
#   severity: error
package mcpc.rules.exec["side-effect-gate"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	input.verb == "execute_gated_side_effect"
	turn.plan_node.kind == "side_effect"
	gate := object.get(turn.plan_node, "commitGateId", null)
	not gate in input.gates.approved
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("commit gate %v of side_effect node %q is not approved", [gate, input.args.planNodeId]),
		"path": "args.planNodeId",
		"suggestedVerb": "escalate",
	})
}
