# METADATA
# title: Node fields
# description: |
#   Every node has the common fields of seed 002 and the fields its kind
#   requires (change, validate, escalate, side_effect); one denial per missing
#   field.
# custom:
#   code: PLAN_MISSING_REQUIRED_FIELDS
#   remediation: "Add the missing fields; planGraphSchema.requiredFields lists them per node kind."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["node-fields"]

import data.mcpc.lib.plan
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some i, node in plan.nodes
	is_object(node)
	some field in object.get(_required, node.kind, tables.plangraph.commonNodeFields)
	object.get(node, field, null) == null
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %s is missing %q", [_name(i, node), field]),
		"path": sprintf("%s.%s", [plan.node_path(i), field]),
	})
}

# node kind to every field it requires (common fields first)
_required[kind] := array.concat(tables.plangraph.commonNodeFields, fields) if {
	some kind, fields in tables.plangraph.kindFields
}

_name(_, node) := sprintf("%q (%s)", [node.nodeId, node.kind]) if is_string(node.nodeId)

_name(i, node) := sprintf("nodes[%d]", [i]) if not is_string(node.nodeId)
