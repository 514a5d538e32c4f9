package mcpc.rules.gate["verb-not-available_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.gate["verb-not-available"] as rule

test_fail_read_before_initialize if {
	r := rule.report with input as fixtures.with_input({
		"state": "UNINITIALIZED",
		"work": {
			"id": "",
			"given": false,
			"found": false,
		},
	})
	r == {{
		"code": "VERB_NOT_AVAILABLE",
		"message": "read_file_lines is not available in state UNINITIALIZED (available: initialize_work)",
		"path": "verb",
		"remediation": "Call a verb listed in capabilities for the current state; suggestedAction names one that moves the work forward.",
		"rule": "mcpc.rules.gate[\"verb-not-available\"]",
		"severity": "error",
		"suggestedVerb": "initialize_work",
	}}
}

test_fail_patch_in_planning if {
	r := rule.report with input as fixtures.with_input({"verb": "apply_code_patch"})
	r == {{
		"code": "VERB_NOT_AVAILABLE",
		"message": "apply_code_patch is not available in state PLANNING (available: read_file_lines, lookup_symbol_definition, trace_symbol_graph, search_codebase_text, write_scratch_file, submit_execution_plan, escalate, signal_task_complete)",
		"path": "verb",
		"remediation": "Call a verb listed in capabilities for the current state; suggestedAction names one that moves the work forward.",
		"rule": "mcpc.rules.gate[\"verb-not-available\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_read_in_completed if {
	r := rule.report with input as fixtures.with_input({"state": "COMPLETED"})
	r == {{
		"code": "VERB_NOT_AVAILABLE",
		"message": "read_file_lines is not available in state COMPLETED (available: signal_task_complete)",
		"path": "verb",
		"remediation": "Call a verb listed in capabilities for the current state; suggestedAction names one that moves the work forward.",
		"rule": "mcpc.rules.gate[\"verb-not-available\"]",
		"severity": "error",
		"suggestedVerb": "signal_task_complete",
	}}
}

test_success_offered if {
	r := rule.report with input as fixtures.with_input({})
	count(r) == 0
}

test_success_unknown_verb_left_to_request_rules if {
	r := rule.report with input as fixtures.with_input({"verb": "nope"})
	count(r) == 0
}

test_success_budget_blocked_left_to_budget_rule if {
	r := rule.report with input as fixtures.with_input({"agent": {"usedTokens": 60000}})
	count(r) == 0
}

test_success_missing_work_left_to_request_rules if {
	r := rule.report with input as fixtures.with_input({
		"state": "UNINITIALIZED",
		"work": {
			"id": "w",
			"given": true,
			"found": false,
		},
	})
	count(r) == 0
}
