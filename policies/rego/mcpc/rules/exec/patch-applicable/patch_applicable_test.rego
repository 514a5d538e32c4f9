package mcpc.rules.exec["patch-applicable_test"]

import data.mcpc.rules.exec["patch-applicable"] as rule

test_fail_find_text_absent if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"patch": {"applicable": false, "edits": 1, "problems": [{
			"path": "args.edits[0]",
			"message": "find text does not occur in the file",
		}]},
	}
	r == {{
		"code": "EXEC_PATCH_INAPPLICABLE",
		"rule": "mcpc.rules.exec[\"patch-applicable\"]",
		"message": "the edit does not apply: find text does not occur in the file",
		"path": "args.edits[0]",
		"remediation": "Read the file again and make each replace_text find occur exactly once (or give occurrence); use a codemod of policies/data/codemods.json (rename_identifier_in_file, update_import_specifier, update_route_path_literal, rewrite_template_tag).",
		"severity": "error",
		"suggestedVerb": "read_file_lines",
	}}
}

test_success_applicable_patch if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"patch": {"applicable": true, "edits": 2, "problems": []},
	}
	count(r) == 0
}

test_success_other_verbs_ignore_patch_facts if {
	r := rule.report with input as {
		"verb": "read_file_lines",
		"patch": {"applicable": false, "edits": 0, "problems": [{"path": "args.edits", "message": "x"}]},
	}
	count(r) == 0
}

test_success_deadline_is_not_inapplicable if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"patch": {"applicable": false, "edits": 1, "problems": [{
			"path": "args.edits[0]",
			"message": "the edit did not finish within the time allowed",
			"kind": "deadline_exceeded",
		}]},
	}
	count(r) == 0
}
