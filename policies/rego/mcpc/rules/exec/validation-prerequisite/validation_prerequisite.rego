# METADATA
# title: Validation prerequisite
# description: |
#   run_targeted_validation validates a node only after every change node it
#   maps to has been patched.
# custom:
#   code: EXEC_PREREQUISITE_UNMET
#   remediation: "Apply the patches of the mapped change nodes first (apply_code_patch), then run the validation."
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.exec["validation-prerequisite"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	input.verb == "run_automation_recipe"
	input.args.recipeId == "run_targeted_validation"
	turn.plan_node.kind == "validate"
	some target in turn.plan_node.mapsToNodeIds
	status := object.get(input.plan.nodes, [target, "status"], "missing")
	status != "patched"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("validate node %q maps to %s, which is %s, not patched", [input.args.planNodeId, target, status]),
		"path": "args.planNodeId",
	})
}
