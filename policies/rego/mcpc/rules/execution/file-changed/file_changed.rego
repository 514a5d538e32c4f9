# METADATA
# title: File changed
# description: |
#   apply_code_patch writes the result of the dry run policy judged, and only
#   onto the content it was tried on. When the file's hash at the write differs
#   from the one the decision saw (someone wrote it in between), nothing is
#   written and the turn is denied.
# custom:
#   code: EXEC_FILE_CHANGED
#   remediation: >-
#     Read the file again (read_file_lines) and send the patch against its current content.
#   severity: error
#   suggestedVerb: read_file_lines
package mcpc.rules.execution["file-changed"]

import data.mcpc.result

report contains violation if {
	some failure in input.execution.failures
	failure.reason == "file_changed"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s: %s", [object.get(input.paths, ["targetFile", "canonical"], ""), failure.message]),
		"path": failure.path,
	})
}
