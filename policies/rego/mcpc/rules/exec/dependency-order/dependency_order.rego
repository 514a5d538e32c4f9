# METADATA
# title: Dependency order
# description: |
#   A plan node is executed only after every node in its dependsOn is done: a
#   change node patched, a validate node passed, a side_effect node executed, an
#   escalate node resolved. It covers apply_code_patch and run_automation_recipe
#   on a node, and execute_gated_side_effect for the side_effect and escalate
#   nodes it depends on (side-effect-validated already holds it back until every
#   change and validate node is done), leaving out the change nodes a validation
#   maps to (validation-prerequisite reports those). escalate and run_sandboxed_code are
#   never held back: asking for evidence and trying code change nothing.
# custom:
#   code: EXEC_PREREQUISITE_UNMET
#   remediation: >-
#     Execute the nodes this one depends on first, in the plan's order; progress lists what remains. If the
#     order is wrong, resubmit the plan before any node has started.
#   severity: error
package mcpc.rules.exec["dependency-order"]

import data.mcpc.lib.turn
import data.mcpc.result

_done := {"change": "patched", "validate": "passed", "side_effect": "executed", "escalate": "resolved"}

# the verb that executes a node of each kind, suggested for the first dependency left
_verb := {
	"change": "apply_code_patch",
	"validate": "run_automation_recipe",
	"side_effect": "execute_gated_side_effect",
	"escalate": "escalate",
}

_checked_kinds := {"side_effect", "escalate"} if input.verb == "execute_gated_side_effect"

else := object.keys(_done) if input.verb in {"apply_code_patch", "run_automation_recipe"}

# [id, kind, status] of each dependency not done yet
_waiting contains [id, dep.kind, status] if {
	some id in turn.plan_node.dependsOn
	dep := object.get(input.plan.nodes, id, {"kind": "missing", "status": "missing"})
	dep.kind in _checked_kinds
	status := dep.status
	status != _done[dep.kind]
	not _validation_prerequisite(id)
}

# validation-prerequisite already reports the change nodes a validation maps to
_validation_prerequisite(id) if {
	input.args.recipeId == "run_targeted_validation"
	id in turn.plan_node.mapsToNodeIds
}

report contains violation if {
	count(_waiting) > 0
	waiting := sort(_waiting)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s node %q depends on %s", [
			turn.plan_node.kind, input.args.planNodeId,
			concat(", ", [sprintf("%s (%s)", [w[0], w[2]]) | some w in waiting]),
		]),
		"path": "args.planNodeId",
		"suggestedVerb": _verb[waiting[0][1]],
	})
}
