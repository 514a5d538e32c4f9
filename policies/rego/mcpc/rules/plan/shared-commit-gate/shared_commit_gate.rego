# METADATA
# title: Shared commit gate
# description: |
#   Each side_effect node has its own commitGateId: a person approves one
#   side effect at a time, and one approval must not let a second run.
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Give every side_effect node a commitGateId of its own."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["shared-commit-gate"]

import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	side_effects := plan.kind_indexes("side_effect")
	count(side_effects) > 1
	some i in side_effects
	node := plan.nodes[i]
	some j in side_effects
	j < i
	earlier := plan.nodes[j]
	is_string(node.commitGateId)
	node.commitGateId == earlier.commitGateId
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("commitGateId %q is used by nodes[%d] and nodes[%d]", [node.commitGateId, j, i]),
		"path": sprintf("%s.commitGateId", [plan.node_path(i)]),
	})
}
