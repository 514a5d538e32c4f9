package mcpc.rules.exec["patch-deadline_test"]

import data.mcpc.rules.exec["patch-deadline"] as rule

test_fail_edit_out_of_time if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"patch": {"applicable": false, "edits": 2, "problems": [
			{"path": "args.edits[0]", "message": "find text does not occur in the file", "kind": "no_match"},
			{"path": "args.edits[1]", "message": "the edit did not finish within the time allowed", "kind": "deadline_exceeded"},
		]},
	}
	r == {{
		"code": "EXEC_PATCH_DEADLINE",
		"rule": "mcpc.rules.exec[\"patch-deadline\"]",
		"message": "the edit did not finish in time: the edit did not finish within the time allowed",
		"path": "args.edits[1]",
		"remediation": "Split the patch into smaller edits, or use replace_text on the part of the file that changes instead of a codemod over the whole file.",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_success_patch_in_time if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"patch": {"applicable": true, "edits": 1, "problems": []},
	}
	count(r) == 0
}
