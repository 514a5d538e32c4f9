package mcpc.rules.exec["side-effect-payload_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["side-effect-payload"] as rule

_remediation := concat(" ", [
	"Write the commit message with write_scratch_file to the file the node's",
	"sideEffectPayloadRef names, then execute the side effect again.",
])

_commit(side_effect) := fixtures.with_input({
	"verb": "execute_gated_side_effect",
	"args": {"planNodeId": "se-1", "sideEffectType": "git_commit"},
	"sideEffect": side_effect,
})

_denial(message) := {
	"code": "EXEC_SIDE_EFFECT_PAYLOAD_INVALID",
	"message": message,
	"path": "args.planNodeId",
	"remediation": _remediation,
	"rule": "mcpc.rules.exec[\"side-effect-payload\"]",
	"severity": "error",
	"suggestedVerb": "write_scratch_file",
}

test_fail_no_ref if {
	r := rule.report with input as _commit({"type": "git_commit", "payloadRef": "", "payload": {"found": false, "bytes": 0, "problem": ""}})
	r == {_denial("side_effect node \"se-1\" names no sideEffectPayloadRef: a commit needs its message")}
}

test_fail_missing_file if {
	r := rule.report with input as _commit({"type": "git_commit", "payloadRef": "scratch:msg", "payload": {
		"found": false, "bytes": 0,
		"problem": "scratch/msg does not exist; write it with write_scratch_file",
	}})
	r == {_denial("the commit message scratch:msg cannot be read: scratch/msg does not exist; write it with write_scratch_file")}
}

test_fail_empty if {
	r := rule.report with input as _commit({"type": "git_commit", "payloadRef": "scratch:msg", "payload": {"found": true, "bytes": 0, "problem": ""}})
	r == {_denial("the commit message scratch:msg is empty")}
}

test_success_message if {
	count(rule.report) == 0 with input as _commit({"type": "git_commit", "payloadRef": "scratch:msg", "payload": {"found": true, "bytes": 40, "problem": ""}})
}

test_success_other_type if {
	count(rule.report) == 0 with input as _commit({"type": "open_pr", "payloadRef": "", "payload": {"found": false, "bytes": 0, "problem": ""}})
}
