# METADATA
# title: mcpc's own files
# description: |
#   A host tool never writes mcpc's configuration, seed, memory, policies,
#   state, trace ledger or the client wiring (policies/data/protected.json,
#   the paths controller_turn protects), whether or not a work is active: an
#   agent must not change the rules it runs under.
# custom:
#   code: HOOK_OWN_FILE
#   remediation: >-
#     mcpc's files change only through mcpc (controller_turn) or by a person; leave them alone and
#     continue through controller_turn.
#   severity: error
package mcpc.rules.hook["own-files"]

import data.mcpc.lib.hook
import data.mcpc.result

report contains violation if {
	some target in input.hook.targets
	target.access == "write"
	hook.own_file(target.path.canonical)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is one of mcpc's own files; %s may not write it", [target.path.canonical, input.hook.tool]),
		"path": target.at,
	})
}

# A command that changes files (policies/data/hook.json writeCommands) and
# names one of mcpc's files as an argument: cp's or mv's destination, a
# touch, an rm. Its arguments are judged whether they exist or not.
report contains violation if {
	some target in input.hook.targets
	segment := input.hook.shell.segments[target.segment]
	hook.listed("writeCommands", segment.argv)
	hook.own_file(target.path.canonical)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%s is one of mcpc's own files; %q may change it",
			[target.path.canonical, concat(" ", segment.argv)],
		),
		"path": target.at,
	})
}
