# METADATA
# title: Dependency cycle
# description: |
#   The dependsOn relation is acyclic; every node on a cycle is reported.
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Remove a dependsOn edge so that no node depends on itself, directly or through other nodes."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["dependency-cycle"]

import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	some id, dependencies in plan.dependency_graph
	count(dependencies) > 0
	id in graph.reachable(plan.dependency_graph, dependencies)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %q depends on itself through a dependency cycle", [id]),
		"path": sprintf("%s.dependsOn", [_path(id)]),
	})
}

_path(id) := [plan.node_path(i) | some i, node in plan.nodes; node.nodeId == id][0]
