# METADATA
# title: Required validation
# description: |
#   A validation command the repository marks required
#   (validation.commands.<id>.required) validates every change whose targetFile
#   it covers: a validate node mapped to the change runs it. The plan's author
#   picks the other checks; these it cannot leave out.
# custom:
#   code: PLAN_VERIFICATION_WEAK
#   remediation: >-
#     Add the required command to a validate node mapped to the change: a verificationHooks entry
#     {recipeId: run_targeted_validation, params: {commandId: <the required id>}}.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["required-validation"]

import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	count(input.config.validationRequired) > 0
	some i, node in plan.change_nodes
	is_string(node.targetFile)
	some command in input.config.validationRequired
	_covers(command, node.targetFile)
	not [node.nodeId, command] in _validated
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %q: %s must be validated by %q, which this repository requires",
			[node.nodeId, node.targetFile, command],
		),
		"path": sprintf("%s.nodeId", [plan.node_path(i)]),
	})
}

# [change id, command] for every validation hook of the validate nodes
_validated contains [target, command] if {
	some node in plan.validate_nodes
	some hook in node.verificationHooks
	hook.recipeId == "run_targeted_validation"
	command := object.get(hook, ["params", "commandId"], "")
	some target in node.mapsToNodeIds
}

# a command without covers globs covers every file
_covers(command, file) if {
	some pattern in object.get(input.config.validationCovers, command, ["**"])
	glob.match(pattern, ["/"], file)
}
