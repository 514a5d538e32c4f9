# METADATA
# title: One active work, or an explicit binding
# description: |
#   With several active works and no MCPC_WORK_ID, a hook event cannot be
#   judged against the right pack and plan, so it is denied.
# custom:
#   code: HOOK_WORK_AMBIGUOUS
#   remediation: >-
#     Set MCPC_WORK_ID in the host's environment to the workId this session works on.
#   severity: error
package mcpc.rules.hook["work-ambiguous"]

import data.mcpc.result

report contains violation if {
	input.binding.requested == ""
	count(input.binding.active) > 1
	active := input.binding.active
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%d works are active (%s) and MCPC_WORK_ID is not set", [count(active), concat(", ", active)]),
		"path": "env.MCPC_WORK_ID",
	})
}
