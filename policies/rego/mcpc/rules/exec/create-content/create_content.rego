# METADATA
# title: Create content
# description: |
#   The set_content edit writes a whole file. Only a patch of the targetFile of
#   a change node with operation create may use it; an existing file is changed
#   with replace_text and codemods, edits a reviewer can read.
# custom:
#   code: PLAN_SCOPE_VIOLATION
#   remediation: "Change existing files with replace_text or a codemod; set_content is for a file a create node adds."
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.exec["create-content"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	input.verb == "apply_code_patch"
	not turn.creates_target
	some i, edit in input.args.edits
	edit.op == "set_content"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"set_content writes a whole file; %v is not the file of a create change node",
			[object.get(input.args, "targetFile", null)],
		),
		"path": sprintf("args.edits[%d]", [i]),
	})
}
