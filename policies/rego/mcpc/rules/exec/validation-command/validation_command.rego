# METADATA
# title: Validation command
# description: |
#   run_targeted_validation runs params.commandId only when it is one of the
#   validate node's verificationHooks (params.commandId) and a configured
#   validation command; the agent never supplies a command line.
# custom:
#   code: PLAN_VERIFICATION_WEAK
#   remediation: >-
#     Pass params.commandId from the validate node's verificationHooks; it must name a command in
#     validation.commands.
#   severity: error
#   suggestedVerb: run_automation_recipe
package mcpc.rules.exec["validation-command"]

import data.mcpc.lib.turn
import data.mcpc.result

_command := object.get(input.args, ["params", "commandId"], null)

_applies if {
	input.verb == "run_automation_recipe"
	input.args.recipeId == "run_targeted_validation"
	turn.plan_node.kind == "validate"
}

_hook_commands contains hook.params.commandId if {
	some hook in turn.plan_node.verificationHooks
}

report contains violation if {
	_applies
	not _command in _hook_commands
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("commandId %v is not a verification hook of validate node %q (hooks: %s)", [
			_command, input.args.planNodeId,
			concat(", ", _hook_commands),
		]),
		"path": "args.params.commandId",
	})
}

report contains violation if {
	_applies
	not _command in input.config.validationCommands
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("commandId %v is not a configured validation command (configured: %s)", [
			_command,
			concat(", ", input.config.validationCommands),
		]),
		"path": "args.params.commandId",
	})
}
