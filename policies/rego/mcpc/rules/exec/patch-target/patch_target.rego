# METADATA
# title: Patch target
# description: |
#   apply_code_patch writes only the file its change node names (canonical path
#   equal to the node's targetFile).
# custom:
#   code: PLAN_SCOPE_VIOLATION
#   remediation: >-
#     Patch the targetFile of the change node named by planNodeId, or submit a plan with a change node for
#     this file.
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.exec["patch-target"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	input.verb == "apply_code_patch"
	turn.plan_node.kind == "change"
	input.paths.targetFile.canonical != turn.plan_node.targetFile
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is not the target of change node %q (%s)", [
			input.paths.targetFile.canonical, input.args.planNodeId,
			turn.plan_node.targetFile,
		]),
		"path": "args.targetFile",
	})
}
