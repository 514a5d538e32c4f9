# METADATA
# title: Dependency cycle
# description: |
#   The dependsOn relation is acyclic; every node on a cycle is reported. Go
#   finds the cycles (input.submissionFacts.cycleNodes, strongly connected
#   components of dependsOn, self-loops included, dangling entries ignored).
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Remove a dependsOn edge so that no node depends on itself, directly or through other nodes."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["dependency-cycle"]

import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	some id, i in _first_index
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %q depends on itself through a dependency cycle", [id]),
		"path": sprintf("%s.dependsOn", [plan.node_path(i)]),
	})
}

_cycle_nodes contains id if some id in input.submissionFacts.cycleNodes

# [nodeId, index] of every node on a cycle (walked only when there is one)
_hits contains [node.nodeId, i] if {
	count(_cycle_nodes) > 0
	some i, node in plan.nodes
	node.nodeId in _cycle_nodes
}

# a cycle node's first index (a duplicated nodeId is reported where it first occurs)
_first_index[id] := min(indices) if {
	some id in _cycle_nodes
	indices := {i | some [hit, i] in _hits; hit == id}
	count(indices) > 0
}
