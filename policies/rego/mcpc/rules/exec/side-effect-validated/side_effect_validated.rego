# METADATA
# title: Side effect after validation
# description: |
#   execute_gated_side_effect runs only once the plan's work is done and
#   checked: every change node patched and every validate node passed. A
#   commit must never take in code no validation has passed, whatever the
#   plan's dependsOn says (the agent writes the plan).
# custom:
#   code: EXEC_PREREQUISITE_UNMET
#   remediation: >-
#     Patch every change node and run every validation until it passes (progress lists what remains), then
#     execute the side effect.
#   severity: error
#   suggestedVerb: run_automation_recipe
package mcpc.rules.exec["side-effect-validated"]

import data.mcpc.lib.turn
import data.mcpc.result

_done := {"change": "patched", "validate": "passed"}

_unfinished contains sprintf("%s (%s)", [id, node.status]) if {
	some id, node in input.plan.nodes
	_done[node.kind] != node.status
}

report contains violation if {
	input.verb == "execute_gated_side_effect"
	turn.plan_node.kind == "side_effect"
	count(_unfinished) > 0
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("side_effect node %q waits for %s", [input.args.planNodeId, concat(", ", sort(_unfinished))]),
		"path": "args.planNodeId",
	})
}
