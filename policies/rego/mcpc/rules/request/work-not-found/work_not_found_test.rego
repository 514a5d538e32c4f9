package mcpc.rules.request["work-not-found_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.request["work-not-found"] as rule

test_fail_unknown_work if {
	r := rule.report with input as fixtures.with_input({"work": {
		"id": "work-zz",
		"given": true,
		"found": false,
	}})
	r == {{
		"code": "WORK_NOT_FOUND",
		"message": "work \"work-zz\" does not exist",
		"path": "workId",
		"remediation": "Pass the workId returned by initialize_work, or call initialize_work to start a new work.",
		"rule": "mcpc.rules.request[\"work-not-found\"]",
		"severity": "error",
		"suggestedVerb": "initialize_work",
	}}
}

test_success_no_work_given if {
	r := rule.report with input as fixtures.with_input({
		"work": {
			"id": "",
			"given": false,
			"found": false,
		},
		"state": "UNINITIALIZED",
		"verb": "initialize_work",
	})
	count(r) == 0
}
