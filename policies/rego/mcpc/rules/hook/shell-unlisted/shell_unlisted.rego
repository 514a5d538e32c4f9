# METADATA
# title: Unlisted shell commands need a person
# description: |
#   While a work is active, a shell command that is not a safe command
#   (policies/data/hook.json safeCommands, or the repository's
#   .ai/config hooks.safeCommands), or that substitutes
#   commands ($(...), backquotes) the hook cannot see into, is put to the
#   person (ask) rather than allowed.
# custom:
#   code: HOOK_SHELL_UNLISTED
#   remediation: >-
#     Prefer controller_turn verbs (search_codebase_text, run_automation_recipe); a person decides on
#     other commands, or lists the ones to allow in .ai/config/repo.json hooks.safeCommands.
#   severity: ask
package mcpc.rules.hook["shell-unlisted"]

import data.mcpc.lib.hook
import data.mcpc.result

_judged(argv) if hook.listed("safeCommands", argv)

_judged(argv) if hook.configured_safe(argv)

_judged(argv) if hook.listed("networkCommands", argv)

_judged(argv) if hook.listed("writeCommands", argv)

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	not _judged(segment.argv)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q is not a configured safe command", [concat(" ", segment.argv)]),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}

report contains violation if {
	hook.bound
	input.hook.shell.substitution
	violation := result.fail(rego.metadata.chain(), {
		"message": "the command substitutes other commands the hook cannot judge",
		"path": "hook.shell.command",
	})
}

report contains violation if {
	hook.bound
	input.hook.shell.command != ""
	not input.hook.shell.parsed
	violation := result.fail(rego.metadata.chain(), {
		"message": "the command could not be split into simple commands",
		"path": "hook.shell.command",
	})
}
