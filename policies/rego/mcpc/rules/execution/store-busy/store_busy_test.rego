package mcpc.rules.execution["store-busy_test"]

import data.mcpc.rules.execution["store-busy"] as rule

test_fail_lock_not_free if {
	r := rule.report with input as {
		"verb": "read_file_lines",
		"execution": {"failures": [{
			"reason": "store_busy", "path": "", "limitMs": 15000,
			"message": "another turn held the store's write lock for the whole wait",
		}]},
	}
	r == {{
		"code": "STORE_BUSY",
		"rule": "mcpc.rules.execution[\"store-busy\"]",
		"message": "read_file_lines did not run: the store's write lock was not free within 15000 ms",
		"path": "",
		"remediation": "Nothing was changed. Send the same turn again in a moment; another agent's turn held the store.",
		"severity": "error",
	}}
}

test_success_other_failures if {
	r := rule.report with input as {
		"verb": "read_file_lines",
		"execution": {"failures": [{"reason": "lock_timeout", "path": "", "stage": "execute", "limitMs": 2000, "message": "x"}]},
	}
	count(r) == 0
}
