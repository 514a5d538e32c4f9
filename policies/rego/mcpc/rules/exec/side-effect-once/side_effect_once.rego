# METADATA
# title: Side effect once
# description: |
#   execute_gated_side_effect runs a side_effect node once: a node already
#   executed, by this agent or another, is not run again (a second commit
#   would take in whatever changed since, under the same approval).
# custom:
#   code: EXEC_SIDE_EFFECT_COLLISION
#   remediation: >-
#     The side effect has run; its result is in the node's artifact bundle. Go on with the nodes that remain,
#     or signal_task_complete when none do.
#   severity: error
#   suggestedVerb: signal_task_complete
package mcpc.rules.exec["side-effect-once"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	input.verb == "execute_gated_side_effect"
	turn.plan_node.kind == "side_effect"
	turn.plan_node.status != "pending"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("side_effect node %q is %s: it runs once", [input.args.planNodeId, turn.plan_node.status]),
		"path": "args.planNodeId",
	})
}
