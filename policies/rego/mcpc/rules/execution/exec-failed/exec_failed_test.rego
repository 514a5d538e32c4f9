package mcpc.rules.execution["exec-failed_test"]

import data.mcpc.rules.execution["exec-failed"] as rule

test_fail_io_error if {
	r := rule.report with input as {
		"verb": "read_file_lines",
		"execution": {"failures": [{"reason": "io_error", "path": "args.targetFile", "message": "the file could not be read"}]},
	}
	r == {{
		"code": "EXEC_FAILED",
		"rule": "mcpc.rules.execution[\"exec-failed\"]",
		"message": "read_file_lines failed: the file could not be read",
		"path": "args.targetFile",
		"remediation": "Nothing was changed. Retry the turn; if it fails again, check the file or command it names with the operator (mcpc explain-deny shows the recorded decision).",
		"severity": "error",
	}}
}

test_success_no_failure if {
	r := rule.report with input as {"verb": "read_file_lines", "execution": {"failures": []}}
	count(r) == 0
}

test_success_file_changed_is_another_rule if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"execution": {"failures": [{"reason": "file_changed", "path": "args.targetFile", "message": "x"}]},
	}
	count(r) == 0
}

test_fail_command_not_started if {
	r := rule.report with input as {
		"verb": "run_automation_recipe",
		"execution": {"failures": [{
			"reason": "command_not_started", "path": "args.params.commandId",
			"message": "validation command lint did not start: exec: \"no-such-linter\": executable file not found in $PATH",
		}]},
	}
	r == {{
		"code": "EXEC_FAILED",
		"rule": "mcpc.rules.execution[\"exec-failed\"]",
		"message": "run_automation_recipe failed: validation command lint did not start: exec: \"no-such-linter\": executable file not found in $PATH",
		"path": "args.params.commandId",
		"remediation": "Nothing was changed. Retry the turn; if it fails again, check the file or command it names with the operator (mcpc explain-deny shows the recorded decision).",
		"severity": "error",
	}}
}

test_success_reasons_of_other_rules if {
	every reason in ["lock_timeout", "store_busy", "outcome_unrecorded", "side_effect_unrecorded"] {
		count(rule.report) == 0 with input as {
			"verb": "run_automation_recipe",
			"execution": {"failures": [{"reason": reason, "path": "", "message": "x"}]},
		}
	}
}
