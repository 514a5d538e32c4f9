# METADATA
# title: One active work, or a bound session
# description: |
#   With several active works, a hook event is judged against the work its
#   session is bound to (the work the session's agent drives through
#   controller_turn) or the one MCPC_WORK_ID names. An event of a session
#   bound to none cannot be judged against the right pack and plan, so it is
#   denied.
# custom:
#   code: HOOK_WORK_AMBIGUOUS
#   remediation: >-
#     Call controller_turn for your work from this session (an allowed answer binds the session to
#     its workId), or set MCPC_WORK_ID in the host's environment to the workId this session works on.
#   severity: error
package mcpc.rules.hook["work-ambiguous"]

import data.mcpc.lib.hook
import data.mcpc.result

report contains violation if {
	input.binding.requested == ""
	not hook.bound
	count(input.binding.active) > 1
	active := input.binding.active
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%d works are active (%s), this session is bound to none of them and MCPC_WORK_ID is not set",
			[count(active), concat(", ", active)],
		),
		"path": "binding.session",
	})
}
