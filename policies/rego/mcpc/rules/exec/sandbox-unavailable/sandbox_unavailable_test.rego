package mcpc.rules.exec["sandbox-unavailable_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["sandbox-unavailable"] as rule

_validation := {
	"verb": "run_automation_recipe",
	"args": {
		"recipeId": "run_targeted_validation",
		"planNodeId": "validate-1",
		"params": {"commandId": "unit"},
	},
}

_commit := {
	"verb": "execute_gated_side_effect",
	"args": {"planNodeId": "se-1", "sideEffectType": "git_commit"},
}

_unavailable := {"available": false, "allowUnsandboxed": false, "reason": "bubblewrap (bwrap) is not installed"}

test_fail_validation_without_sandbox if {
	r := rule.report with input as fixtures.with_input(object.union(_validation, {"sandbox": _unavailable}))
	r == {{
		"code": "SANDBOX_UNAVAILABLE",
		"message": "run_automation_recipe runs commands only in a sandbox, and none can be made here: bubblewrap (bwrap) is not installed",
		"path": "verb",
		"remediation": "Ask a person to install bubblewrap (Debian package bubblewrap) where mcpc runs, or to set sandbox.allowUnsandboxed in .ai/config to run commands with mcpc's own authority.",
		"rule": "mcpc.rules.exec[\"sandbox-unavailable\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_fail_side_effect_without_sandbox if {
	r := rule.report with input as fixtures.with_input(object.union(_commit, {"sandbox": _unavailable}))
	r == {{
		"code": "SANDBOX_UNAVAILABLE",
		"message": "execute_gated_side_effect runs commands only in a sandbox, and none can be made here: bubblewrap (bwrap) is not installed",
		"path": "verb",
		"remediation": "Ask a person to install bubblewrap (Debian package bubblewrap) where mcpc runs, or to set sandbox.allowUnsandboxed in .ai/config to run commands with mcpc's own authority.",
		"rule": "mcpc.rules.exec[\"sandbox-unavailable\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_success_sandboxed if {
	r := rule.report with input as fixtures.with_input(_validation)
	count(r) == 0
}

test_success_unsandboxed_allowed if {
	allowed := object.union(_unavailable, {"allowUnsandboxed": true})
	r := rule.report with input as fixtures.with_input(object.union(_commit, {"sandbox": allowed}))
	count(r) == 0
}

test_success_other_recipe if {
	other := object.union(_validation, {"args": {"recipeId": "rename_symbol", "planNodeId": "change-1"}})
	r := rule.report with input as fixtures.with_input(object.union(other, {"sandbox": _unavailable}))
	count(r) == 0
}

test_success_reads_without_sandbox if {
	r := rule.report with input as fixtures.with_input({"sandbox": _unavailable})
	count(r) == 0
}
