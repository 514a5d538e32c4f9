# METADATA
# title: Protected target
# description: |
#   No plan node targets one of mcpc's own files (policies/data/protected.json),
#   whatever the plan says: a change node's targetFile and a node's
#   codeEvidence stay off them, so neither a patch, a codemod nor the commit
#   of a gated side effect (which commits what change nodes patched) can
#   reach them. Paths are compared in lower case and without empty or "."
#   segments, so ./.ai//config and .AI/config are .ai/config.
# custom:
#   code: PROTECTED_PATH
#   remediation: >-
#     mcpc's configuration, seed knowledge, memory, policies, state and client wiring are changed by
#     people, not agents; plan changes to repository files only.
#   severity: error
package mcpc.rules.plan["protected-target"]

import data.mcpc.lib.plan
import data.mcpc.lib.protected
import data.mcpc.result

report contains violation if {
	some i, node in plan.change_nodes
	is_string(node.targetFile)
	protected.is_protected(node.targetFile)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v targets %s, which is mcpc's own: %s", [
			node.nodeId, node.targetFile,
			protected.reason(node.targetFile),
		]),
		"path": sprintf("%s.targetFile", [plan.node_path(i)]),
	})
}
