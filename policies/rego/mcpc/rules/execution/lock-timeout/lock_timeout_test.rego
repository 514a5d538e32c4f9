package mcpc.rules.execution["lock-timeout_test"]

import data.mcpc.rules.execution["lock-timeout"] as rule

test_fail_execute_stage_overran if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"execution": {"failures": [{
			"reason": "lock_timeout", "path": "", "stage": "execute", "limitMs": 2000,
			"message": "the turn was still in its execute stage when it reached the bound",
		}]},
	}
	r == {{
		"code": "LOCK_TIMEOUT",
		"rule": "mcpc.rules.execution[\"lock-timeout\"]",
		"message": "apply_code_patch held the store's write lock for 2000 ms, its bound, in its execute stage and was rolled back",
		"path": "",
		"remediation": "Nothing was changed. Retry the turn; if it reaches the bound again, make it smaller (fewer edits, a smaller file, a narrower range) or ask the operator about the store (store.lockTimeoutMs).",
		"severity": "error",
	}}
}

test_success_other_failures if {
	r := rule.report with input as {
		"verb": "read_file_lines",
		"execution": {"failures": [{"reason": "io_error", "path": "args.targetFile", "message": "x"}]},
	}
	count(r) == 0
}
