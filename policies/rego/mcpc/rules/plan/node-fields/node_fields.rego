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

# One pass over the nodes: a node's missing fields are a set difference (a
# field present with JSON null counts as present; the request schema already
# rejects null for typed fields).
# Fast path: every node is an object with a kind and no distinct node shape
# lacks a field. Otherwise one pass over the nodes: a node's missing fields
# are a set difference (a field present with JSON null counts as present; the
# request schema already rejects null for typed fields).
report contains violation if {
	not _complete
	some i, missing in _missing
	some field in missing
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %s is missing %q", [_name(i, plan.nodes[i]), field]),
		"path": sprintf("%s.%s", [plan.node_path(i), field]),
	})
}

_complete if {
	plan.all_kinded
	every shape in plan.shapes {
		count(object.get(_required, shape[0], _common) - shape[1]) == 0
	}
}

# node index to the fields it lacks (only nodes that lack some)
_missing[i] := missing if {
	some i, node in plan.nodes
	is_object(node)
	missing := object.get(_required, node.kind, _common) - object.keys(node)
	count(missing) > 0
}

_common contains field if some field in tables.plangraph.commonNodeFields

# node kind to every field it requires (common fields included)
_required[kind] := _common | {field | some field in fields} if {
	some kind, fields in tables.plangraph.kindFields
}

_name(_, node) := sprintf("%q (%s)", [node.nodeId, node.kind]) if _has_string_id(node)

# not is_string(node.nodeId) is undefined, not true, when the node has no
# nodeId: a node lacking it was never reported
_name(i, node) := sprintf("nodes[%d]", [i]) if not _has_string_id(node)

_has_string_id(node) if is_string(node.nodeId)
