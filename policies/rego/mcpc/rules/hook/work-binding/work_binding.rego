# METADATA
# title: The named work exists and is active
# description: |
#   MCPC_WORK_ID binds hook events to a work; naming a work that does not
#   exist or has ended is denied rather than judged against no work.
# custom:
#   code: HOOK_WORK_NOT_FOUND
#   remediation: >-
#     Set MCPC_WORK_ID to the workId initialize_work returned for an active work (mcpc works lists
#     them), or unset it.
#   severity: error
package mcpc.rules.hook["work-binding"]

import data.mcpc.result

report contains violation if {
	input.binding.requested != ""
	not input.binding.found
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("MCPC_WORK_ID names %s, which is not an active work of this workspace", [input.binding.requested]),
		"path": "env.MCPC_WORK_ID",
	})
}
