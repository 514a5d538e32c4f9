# METADATA
# title: No writes from the shell
# description: |
#   While a work is active, a shell command that changes files or the
#   repository (policies/data/hook.json writeCommands) is denied; writes go
#   through apply_code_patch, and so is a safe command given an option that
#   makes it write a file (commandOptions.writes: sort -o, go build -o) or an
#   output operand (outputOperands: uniq's second). Redirections to files are
#   write targets, judged by edit-ownership and own-files.
# custom:
#   code: HOOK_SHELL_WRITE
#   remediation: >-
#     Change files with apply_code_patch through controller_turn, on a change node of the accepted plan.
#   severity: error
package mcpc.rules.hook["shell-write"]

import data.mcpc.lib.hook
import data.mcpc.result

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	hook.listed("writeCommands", segment.argv)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q changes files", [concat(" ", segment.argv)]),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	some opt in hook.unsafe_options("writes", segment.argv)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q writes a file (%s)", [concat(" ", segment.argv), opt]),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	operand := hook.output_operand(segment.argv)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q writes %s", [concat(" ", segment.argv), operand]),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}
