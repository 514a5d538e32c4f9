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
	not _known_kinds
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
	not plan.all_kinded
	some i, node in plan.nodes
	not is_object(node)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("nodes[%d] is not an object", [i]),
		"path": plan.node_path(i),
	})
}

# fast path: every node is an object whose kind is a known one
_known_kinds if {
	plan.all_kinded
	kinds := tables.plangraph.kindFields
	every shape in plan.shapes {
		kinds[shape[0]]
	}
}
