# METADATA
# title: Patch once
# description: |
#   apply_code_patch (and replace_lexeme_in_file) applies a change node's patch once: to a pending node, and
#   again only as a correction once a validation mapped to the node has failed
#   and none is running. A node already patched whose validations are pending,
#   running or passed is not patched again, by its agent or another: a second
#   patch would change what those validations checked.
# custom:
#   code: EXEC_PREREQUISITE_UNMET
#   remediation: >-
#     Run the node's validation (run_automation_recipe run_targeted_validation); patch the node again only
#     after that validation fails.
#   severity: error
#   suggestedVerb: run_automation_recipe
package mcpc.rules.exec["patch-once"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	_writes
	turn.plan_node.kind == "change"
	turn.plan_node.status != "pending"
	not _correction
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %q is %s and its validations are %s; %s", [
			input.args.planNodeId, turn.plan_node.status, _validation_states,
			"a patch applies once, and again only after a validation of it fails",
		]),
		"path": "args.planNodeId",
	})
}

# the statuses of the validate nodes mapped to the node
_validations contains node.status if {
	some node in input.plan.nodes
	node.kind == "validate"
	input.args.planNodeId in node.mapsToNodeIds
}

_correction if {
	"failed" in _validations
	not "running" in _validations
}

default _validation_states := "none"

_validation_states := concat(", ", sort(_validations)) if count(_validations) > 0

# a patch, or a recipe that writes the node's file
_writes if input.verb == "apply_code_patch"

_writes if {
	input.verb == "run_automation_recipe"
	input.args.recipeId == "replace_lexeme_in_file"
}
