package mcpc.rules.exec["side-effect-executor_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["side-effect-executor"] as rule

_remediation := concat(" ", [
	"Execute side_effect nodes of a type mcpc can carry out (config.sideEffectExecutors of the decision",
	"record; git_commit), naming the type the accepted plan declares, or leave the side effect to a person.",
])

_turn(side_effect_type, args) := fixtures.with_input({
	"verb": "execute_gated_side_effect",
	"state": "EXECUTING",
	"args": object.union({"planNodeId": "notify"}, args),
	"plan": {"accepted": true, "started": true, "nodes": {"notify": {
		"kind": "side_effect", "status": "pending", "sideEffectType": side_effect_type, "commitGateId": "g",
		"verificationHooks": [], "mapsToNodeIds": [], "dependsOn": [],
	}}},
})

test_fail_type_without_executor if {
	r := rule.report with input as _turn("notification", {"sideEffectType": "notification"})
	r == {{
		"code": "EXEC_SIDE_EFFECT_UNSUPPORTED",
		"message": "side_effect node \"notify\" is of type \"notification\", which this build cannot execute (it executes git_commit)",
		"path": "args.planNodeId",
		"remediation": _remediation,
		"rule": "mcpc.rules.exec[\"side-effect-executor\"]",
		"severity": "error",
		"suggestedVerb": "signal_task_complete",
	}}
}

test_fail_asked_type_is_not_the_declared_one if {
	r := rule.report with input as _turn("git_commit", {"sideEffectType": "deploy"})
	r == {{
		"code": "EXEC_SIDE_EFFECT_UNSUPPORTED",
		"message": "side_effect node \"notify\" is of type \"git_commit\", not \"deploy\"",
		"path": "args.sideEffectType",
		"remediation": _remediation,
		"rule": "mcpc.rules.exec[\"side-effect-executor\"]",
		"severity": "error",
		"suggestedVerb": "signal_task_complete",
	}}
}

test_success_declared_executable_type if {
	count(rule.report) == 0 with input as _turn("git_commit", {"sideEffectType": "git_commit"})
	count(rule.report) == 0 with input as _turn("git_commit", {})
}
