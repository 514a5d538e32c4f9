package mcpc.rules.execution["side-effect-unrecorded_test"]

import data.mcpc.rules.execution["side-effect-unrecorded"] as rule

test_fail_commit_made_not_recorded if {
	r := rule.report with input as {
		"verb": "execute_gated_side_effect",
		"execution": {"failures": [{
			"reason": "side_effect_unrecorded", "path": "args.planNodeId", "commit": "0123abcd",
			"message": "side_effect node commit-1 made its commit, but the node could not be marked executed",
		}]},
	}
	r == {{
		"code": "SIDE_EFFECT_UNRECORDED",
		"rule": "mcpc.rules.execution[\"side-effect-unrecorded\"]",
		"message": "commit 0123abcd was made; side_effect node commit-1 made its commit, but the node could not be marked executed",
		"path": "args.planNodeId",
		"remediation": "Do not execute the side effect again: the commit named in the message exists. Ask the operator to check the store and the commit (mcpc explain-deny shows it); keep it or revert it with git.",
		"severity": "error",
	}}
}

test_success_other_failures if {
	r := rule.report with input as {
		"verb": "execute_gated_side_effect",
		"execution": {"failures": [{"reason": "io_error", "path": "args.planNodeId", "message": "git commit failed"}]},
	}
	count(r) == 0
}
