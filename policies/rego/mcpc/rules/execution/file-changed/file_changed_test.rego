package mcpc.rules.execution["file-changed_test"]

import data.mcpc.rules.execution["file-changed"] as rule

test_fail_changed_between_decision_and_write if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"paths": {"targetFile": {"canonical": "src/a.ts"}},
		"execution": {"failures": [{
			"reason": "file_changed", "path": "args.targetFile",
			"message": "the file changed between the decision and the write",
		}]},
	}
	r == {{
		"code": "EXEC_FILE_CHANGED",
		"rule": "mcpc.rules.execution[\"file-changed\"]",
		"message": "src/a.ts: the file changed between the decision and the write",
		"path": "args.targetFile",
		"remediation": "Read the file again (read_file_lines) and send the patch against its current content.",
		"severity": "error",
		"suggestedVerb": "read_file_lines",
	}}
}

test_success_other_failures if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"paths": {},
		"execution": {"failures": [{"reason": "io_error", "path": "args.targetFile", "message": "x"}]},
	}
	count(r) == 0
}
