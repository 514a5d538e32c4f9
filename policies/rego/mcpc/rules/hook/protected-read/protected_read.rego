# METADATA
# title: Protected reads
# description: |
#   A host tool never reads a secret (the pack policy's secret globs), mcpc's
#   own files (the protected paths controller_turn refuses too) or git
#   internals, whether or not a work is active.
# custom:
#   code: HOOK_PROTECTED_READ
#   remediation: >-
#     Secrets and mcpc's state are never shown to an agent; work from the context pack through
#     controller_turn.
#   severity: error
package mcpc.rules.hook["protected-read"]

import data.mcpc.lib.hook
import data.mcpc.result

_protected(file) if hook.secret_file(file)

_protected(file) if hook.state_file(file)

_protected(file) if hook.own_file(file)

report contains violation if {
	some target in input.hook.targets
	target.access == "read"
	_protected(target.path.canonical)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is protected; %s may not read it", [target.path.canonical, input.hook.tool]),
		"path": target.at,
	})
}
