# METADATA
# title: Weak verification
# description: |
#   Every change node is mapped by at least one validate node (seed 000
#   invariant 5); a validate node maps only to change nodes of this plan; every
#   verification hook names a known recipe and a params.commandId among the
#   configured validation commands (validation.commands).
# custom:
#   code: PLAN_VERIFICATION_WEAK
#   remediation: >-
#     Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation
#     command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["weak-verification"]

import data.mcpc.lib.plan
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some i, node in plan.nodes
	node.kind == "validate"
	some k, target in node.mapsToNodeIds
	not target in plan.change_ids
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("validate node %v maps to %v, which is not a change node of this plan", [node.nodeId, target]),
		"path": sprintf("%s.mapsToNodeIds[%d]", [plan.node_path(i), k]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	node.kind == "change"
	is_string(node.nodeId)
	not node.nodeId in _mapped
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %q is not mapped by any validate node", [node.nodeId]),
		"path": sprintf("%s.nodeId", [plan.node_path(i)]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	some k, hook in node.verificationHooks
	not tables.recipes[hook.recipeId]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %v: verification hook recipe %v is not one of %s", [
			node.nodeId, object.get(hook, "recipeId", null),
			concat(", ", object.keys(tables.recipes)),
		]),
		"path": sprintf("%s.verificationHooks[%d].recipeId", [plan.node_path(i), k]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	some k, hook in node.verificationHooks
	hook.recipeId == "run_targeted_validation"
	command := object.get(hook, ["params", "commandId"], null)
	not command in input.config.validationCommands
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %v: validation command %v is not configured (configured: %s)", [
			node.nodeId, command,
			concat(", ", input.config.validationCommands),
		]),
		"path": sprintf("%s.verificationHooks[%d].params.commandId", [plan.node_path(i), k]),
	})
}

_mapped contains target if {
	some node in plan.nodes
	node.kind == "validate"
	some target in node.mapsToNodeIds
}
