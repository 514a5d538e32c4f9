# METADATA
# title: Duplicate node id
# description: |
#   Every nodeId of the plan is unique.
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Give every node its own nodeId."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["duplicate-node-id"]

import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	count(plan.ids) != count(plan.id_list)
	some i, node in plan.nodes
	some j, earlier in plan.nodes
	j < i
	node.nodeId == earlier.nodeId
	is_string(node.nodeId)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("nodeId %q is used by nodes[%d] and nodes[%d]", [node.nodeId, j, i]),
		"path": sprintf("%s.nodeId", [plan.node_path(i)]),
	})
}
