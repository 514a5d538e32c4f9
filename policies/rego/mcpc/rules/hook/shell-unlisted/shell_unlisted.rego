# METADATA
# title: Unlisted shell commands need a person
# description: |
#   While a work is active, a shell command that is not a safe command
#   (policies/data/hook.json safeCommands, or the repository's
#   .ai/config hooks.safeCommands), or that substitutes
#   commands ($(...), backquotes) or expands words ($HOME, {a,b}) the hook
#   cannot see into, is put to the person (ask) rather than allowed; so is a
#   safe command that sets a variable other than harmlessVariables
#   (GIT_PAGER=..., env LD_PRELOAD=...), is given an option that makes it
#   run another program (commandOptions.runs: go test -exec, rg --pre), or
#   sets a make variable (variableOperands: make CC=...).
# custom:
#   code: HOOK_SHELL_UNLISTED
#   remediation: >-
#     Prefer controller_turn verbs (search_codebase_text, run_automation_recipe); a person decides on
#     other commands, or lists the ones to allow in .ai/config/repo.json hooks.safeCommands.
#   severity: ask
package mcpc.rules.hook["shell-unlisted"]

import data.mcpc.lib.hook
import data.mcpc.lib.tables
import data.mcpc.result

_judged(argv) if hook.listed("safeCommands", argv)

_judged(argv) if hook.configured_safe(argv)

_judged(argv) if hook.listed("networkCommands", argv)

_judged(argv) if hook.listed("writeCommands", argv)

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	count(segment.argv) > 0 # a segment of assignments alone is judged by them
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

report contains violation if {
	hook.bound
	input.hook.shell.expansion
	violation := result.fail(rego.metadata.chain(), {
		"message": "the command expands variables or braces the hook cannot judge",
		"path": "hook.shell.command",
	})
}

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	some name in segment.assignments
	not name in tables.hookpolicy.harmlessVariables
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the command sets %s, which can change what it runs", [name]),
		"path": sprintf("hook.shell.segments[%d].assignments", [i]),
	})
}

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	some opt in hook.unsafe_options("runs", segment.argv)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q runs a program its option %s names", [concat(" ", segment.argv), opt]),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	some entry in tables.hookpolicy.variableOperands
	hook.command_matches(entry, segment.argv)
	some arg in array.slice(segment.argv, 1, count(segment.argv))
	regex.match(`^[A-Za-z_][A-Za-z0-9_.]*=`, arg)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%q sets a %s variable (%s), which can change what it runs",
			[concat(" ", segment.argv), entry, arg],
		),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}
