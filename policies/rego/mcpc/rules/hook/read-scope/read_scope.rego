# METADATA
# title: Native reads stay in the pack
# description: |
#   While a work is active, a host tool reads only files of its context pack:
#   a path outside the pack, outside the worktree or otherwise unresolvable is
#   denied, as read_file_lines would deny it.
# custom:
#   code: HOOK_READ_OUTSIDE_PACK
#   remediation: >-
#     Read only files listed in the work's contextPack.files; to see another file, call controller_turn
#     with verb escalate so the controller can add it to the pack.
#   severity: error
package mcpc.rules.hook["read-scope"]

import data.mcpc.lib.hook
import data.mcpc.result

report contains violation if {
	hook.bound
	some target in input.hook.targets
	target.access == "read"
	not target.path.canonical in input.pack.files
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is not in the context pack of work %s", [hook.name(target), input.work.id]),
		"path": target.at,
	})
}
