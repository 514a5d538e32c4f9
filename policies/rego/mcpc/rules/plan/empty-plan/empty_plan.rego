# METADATA
# title: Empty plan
# description: |
#   A plan has at least one node, under nodes.
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Put the plan's nodes in planGraph.nodes (a non-empty array)."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["empty-plan"]

import data.mcpc.result

report contains violation if {
	not _has_nodes
	violation := result.fail(rego.metadata.chain(), {
		"message": "planGraph.nodes is missing, not an array or empty",
		"path": "args.planGraph.nodes",
	})
}

_has_nodes if {
	is_array(input.submission.nodes)
	count(input.submission.nodes) > 0
}
