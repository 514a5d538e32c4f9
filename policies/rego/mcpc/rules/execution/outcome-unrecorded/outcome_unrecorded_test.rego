package mcpc.rules.execution["outcome-unrecorded_test"]

import data.mcpc.rules.execution["outcome-unrecorded"] as rule

test_fail_validation_outcome_not_recorded if {
	r := rule.report with input as {
		"verb": "run_automation_recipe",
		"execution": {"failures": [{
			"reason": "outcome_unrecorded", "path": "args.planNodeId",
			"message": "validation command test ran (passed: true) but its outcome could not be recorded on node validate-1",
		}]},
	}
	r == {{
		"code": "EXEC_UNRECORDED",
		"rule": "mcpc.rules.execution[\"outcome-unrecorded\"]",
		"message": "validation command test ran (passed: true) but its outcome could not be recorded on node validate-1",
		"path": "args.planNodeId",
		"remediation": "The command ran but the plan does not know its outcome. Run the same validation again (run_automation_recipe); if it keeps failing to record, tell the operator (mcpc explain-deny).",
		"severity": "error",
		"suggestedVerb": "run_automation_recipe",
	}}
}

test_success_other_failures if {
	r := rule.report with input as {
		"verb": "run_automation_recipe",
		"execution": {"failures": [{"reason": "command_not_started", "path": "args.params.commandId", "message": "x"}]},
	}
	count(r) == 0
}
