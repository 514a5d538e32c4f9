package mcpc.rules.complete["work-incomplete_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.complete["work-incomplete"] as rule

test_fail_no_plan if {
	r := rule.report with input as fixtures.with_input({"verb": "signal_task_complete"})
	r == {{
		"code": "WORK_INCOMPLETE",
		"message": "no execution plan has been accepted for this work",
		"path": "plan.accepted",
		"remediation": "Finish the remaining plan nodes (patch change nodes, pass their validations, execute side effects, resolve escalations) before signalling completion; progress lists what remains.",
		"rule": "mcpc.rules.complete[\"work-incomplete\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_nodes_remain if {
	r := rule.report with input as fixtures.with_input({
		"verb": "signal_task_complete",
		"state": "PLAN_ACCEPTED",
		"plan": {
			"accepted": true,
			"started": true,
			"nodes": {"change-1": {
				"kind": "change",
				"status": "pending",
			}},
		},
		"nodeStates": [
			{"kind": "change", "status": "pending", "validators": ["pending"], "count": 1},
			{"kind": "validate", "status": "pending", "validators": [], "count": 1},
		],
	})
	r == {{
		"code": "WORK_INCOMPLETE",
		"message": "2 of 2 plan nodes remain (0 completed)",
		"path": "nodeStates",
		"remediation": "Finish the remaining plan nodes (patch change nodes, pass their validations, execute side effects, resolve escalations) before signalling completion; progress lists what remains.",
		"rule": "mcpc.rules.complete[\"work-incomplete\"]",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_success_all_done if {
	r := rule.report with input as fixtures.with_input({
		"verb": "signal_task_complete",
		"state": "PLAN_ACCEPTED",
		"plan": {
			"accepted": true,
			"started": true,
			"nodes": {},
		},
		"nodeStates": [
			{"kind": "change", "status": "patched", "validators": ["passed"], "count": 1},
			{"kind": "validate", "status": "passed", "validators": [], "count": 1},
		],
	})
	count(r) == 0
}

test_success_completed_stays if {
	r := rule.report with input as fixtures.with_input({
		"verb": "signal_task_complete",
		"state": "COMPLETED",
	})
	count(r) == 0
}

test_success_failed_stays if {
	r := rule.report with input as fixtures.with_input({
		"verb": "signal_task_complete",
		"state": "FAILED",
	})
	count(r) == 0
}
