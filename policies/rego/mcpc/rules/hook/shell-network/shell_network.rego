# METADATA
# title: No network from the shell
# description: |
#   While a work is active, a shell command that reaches the network
#   (policies/data/hook.json networkCommands) is denied.
# custom:
#   code: HOOK_SHELL_NETWORK
#   remediation: >-
#     The network is not part of a governed work; ask the person running the work to fetch what you need.
#   severity: error
package mcpc.rules.hook["shell-network"]

import data.mcpc.lib.hook
import data.mcpc.result

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	hook.listed("networkCommands", segment.argv)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q reaches the network", [concat(" ", segment.argv)]),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}
