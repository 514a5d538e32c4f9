# METADATA
# title: No network from the shell or the host's web tools
# description: |
#   While a work is active, a shell command that reaches the network
#   (policies/data/hook.json networkCommands) is denied, and so is a host
#   tool that does (networkTools: WebFetch, WebSearch).
# custom:
#   code: HOOK_SHELL_NETWORK
#   remediation: >-
#     The network is not part of a governed work; ask the person running the work to fetch what you need.
#   severity: error
package mcpc.rules.hook["shell-network"]

import data.mcpc.lib.hook
import data.mcpc.lib.tables
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

report contains violation if {
	hook.bound
	input.hook.tool in tables.hookpolicy.networkTools
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s reaches the network", [input.hook.tool]),
		"path": "hook.tool",
	})
}
