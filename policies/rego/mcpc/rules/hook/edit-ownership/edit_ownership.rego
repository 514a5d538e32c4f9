# METADATA
# title: Native edits need an owning change node
# description: |
#   While a work is active, a host tool edits or writes a file only when a
#   change node of the work's accepted plan targets it (input.owned).
#   Shell output sent to /dev/null and the like writes no file.
# custom:
#   code: HOOK_EDIT_NOT_OWNED
#   remediation: >-
#     Submit a plan whose change node targets this file (submit_execution_plan), or edit it with
#     apply_code_patch through controller_turn once the plan is accepted.
#   severity: error
package mcpc.rules.hook["edit-ownership"]

import data.mcpc.lib.hook
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	hook.bound
	some target in input.hook.targets
	target.access == "write"
	not input.owned[target.path.canonical]
	not target.path.raw in tables.hookpolicy.harmlessRedirects
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("no change node of work %s's accepted plan owns %s", [input.work.id, hook.name(target)]),
		"path": target.at,
	})
}
