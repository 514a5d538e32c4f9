# METADATA
# title: Patch applicable
# description: |
#   Go dry-runs apply_code_patch's edits on the file's current content before
#   the decision (input.patch). A patch whose edits do not apply (find text
#   absent or ambiguous, an unknown codemod or op, a codemod that finds nothing
#   to change) is refused before anything is written, one denial per failing
#   edit. An edit that ran out of time is patch-deadline's.
# custom:
#   code: EXEC_PATCH_INAPPLICABLE
#   remediation: >-
#     Read the file again and make each replace_text find occur exactly once (or give
#     occurrence); use a codemod of policies/data/codemods.json (rename_identifier_in_file,
#     update_import_specifier, update_route_path_literal, rewrite_template_tag).
#   severity: error
#   suggestedVerb: read_file_lines
package mcpc.rules.exec["patch-applicable"]

import data.mcpc.result

report contains violation if {
	input.verb == "apply_code_patch"
	some problem in input.patch.problems
	not problem.kind == "deadline_exceeded"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the edit does not apply: %s", [problem.message]),
		"path": problem.path,
	})
}
