# METADATA
# title: Dangling dependency
# description: |
#   Every dependsOn entry names a node of the same plan.
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Point dependsOn only at nodeIds defined in this plan, or add the missing node."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["dangling-dependency"]

import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	ids := plan.ids
	count(plan.dependencies - ids) > 0
	some i, node in plan.nodes
	some k, dependency in node.dependsOn
	not dependency in ids
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %v depends on %v, which is not a node of this plan", [node.nodeId, dependency]),
		"path": sprintf("%s.dependsOn[%d]", [plan.node_path(i), k]),
	})
}
