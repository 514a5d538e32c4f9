# METADATA
# title: Side effect payload
# description: |
#   A git_commit side effect commits with the message its node's
#   sideEffectPayloadRef names: a non-empty file of the work's scratch folder
#   ("scratch:NAME"), written by the agent with write_scratch_file. Without
#   one there is no message, and mcpc does not make one up from its state.
# custom:
#   code: EXEC_SIDE_EFFECT_PAYLOAD_INVALID
#   remediation: >-
#     Write the commit message with write_scratch_file to the file the node's
#     sideEffectPayloadRef names, then execute the side effect again.
#   severity: error
#   suggestedVerb: write_scratch_file
package mcpc.rules.exec["side-effect-payload"]

import data.mcpc.result

_commit if {
	input.verb == "execute_gated_side_effect"
	input.sideEffect.type == "git_commit"
}

report contains violation if {
	_commit
	input.sideEffect.payloadRef == ""
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"side_effect node %q names no sideEffectPayloadRef: a commit needs its message",
			[input.args.planNodeId],
		),
		"path": "args.planNodeId",
	})
}

report contains violation if {
	_commit
	input.sideEffect.payloadRef != ""
	input.sideEffect.payload.problem != ""
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"the commit message %s cannot be read: %s",
			[input.sideEffect.payloadRef, input.sideEffect.payload.problem],
		),
		"path": "args.planNodeId",
	})
}

report contains violation if {
	_commit
	input.sideEffect.payload.found
	input.sideEffect.payload.bytes == 0
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the commit message %s is empty", [input.sideEffect.payloadRef]),
		"path": "args.planNodeId",
	})
}
