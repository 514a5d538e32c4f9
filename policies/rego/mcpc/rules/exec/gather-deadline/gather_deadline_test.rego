package mcpc.rules.exec["gather-deadline_test"]

import data.mcpc.rules.exec["gather-deadline"] as rule

test_fail_patch_dry_run_past_deadline if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"deadlines": [{"fact": "patch", "limitMs": 2000}],
	}
	r == {{
		"code": "EXEC_DEADLINE_EXCEEDED",
		"rule": "mcpc.rules.exec[\"gather-deadline\"]",
		"message": "the patch facts were not gathered within 2000 ms",
		"path": "args.edits",
		"remediation": "Split the change into smaller edits (replace_text with a find that occurs once) or patch a smaller file; an operator can raise store.lockTimeoutMs.",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_success_every_fact_gathered if {
	r := rule.report with input as {"verb": "apply_code_patch", "deadlines": []}
	count(r) == 0
}
