# METADATA
# title: Unknown node kind
# description: |
#   A node is an object whose kind is one of change, validate, escalate,
#   side_effect.
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Give every node a kind of change, validate, escalate or side_effect."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["unknown-node-kind"]

import data.mcpc.lib.plan
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	_unknown_kinds
	kinds := tables.plangraph.kindFields
	some i, node in plan.nodes
	is_object(node)
	not plan.missing(node, "kind")
	not kinds[node.kind]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"node kind %v is not one of %s",
			[node.kind, concat(", ", object.keys(kinds))],
		),
		"path": sprintf("%s.kind", [plan.node_path(i)]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	not is_object(node)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("nodes[%d] is not an object", [i]),
		"path": plan.node_path(i),
	})
}

# guard: some node has a kind that is not a known one (null and absent kinds are node-fields' business)
_unknown_kinds if count(_kinds - object.keys(tables.plangraph.kindFields) - {null}) > 0

_kinds := {node.kind | some node in plan.nodes}
