# METADATA
# title: Other servers' tools need a person
# description: |
#   While a work is active, a tool of another MCP server (Claude Code's
#   mcp__server__tool, Cursor's MCP:tool) is put to the person (ask): what it
#   reads and writes the hook cannot see, so it could read outside the pack
#   or write a file no change node owns.
# custom:
#   code: HOOK_TOOL_UNLISTED
#   remediation: >-
#     Work through controller_turn; a person decides whether another server's tool may run during a work.
#   severity: ask
package mcpc.rules.hook["external-tool"]

import data.mcpc.lib.hook
import data.mcpc.result

report contains violation if {
	hook.bound
	input.hook.kind == "external"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%s is a tool of another MCP server, whose reads and writes the hook cannot see",
			[input.hook.tool],
		),
		"path": "hook.tool",
	})
}
