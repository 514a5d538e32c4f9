# METADATA
# title: Patch deadline
# description: |
#   Go's dry run of apply_code_patch's edits is bounded in time; an edit that
#   had not finished when the time ran out (a problem of kind
#   deadline_exceeded in input.patch) is refused, nothing written.
# custom:
#   code: EXEC_PATCH_DEADLINE
#   remediation: >-
#     Split the patch into smaller edits, or use replace_text on the part of the file that changes instead
#     of a codemod over the whole file.
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.exec["patch-deadline"]

import data.mcpc.result

report contains violation if {
	input.verb == "apply_code_patch"
	some problem in input.patch.problems
	problem.kind == "deadline_exceeded"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the edit did not finish in time: %s", [problem.message]),
		"path": problem.path,
	})
}
