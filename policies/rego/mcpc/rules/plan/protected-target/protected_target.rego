# METADATA
# title: Protected target
# description: |
#   No plan node targets one of mcpc's own files (policies/data/protected.json),
#   whatever the plan says: a change node's targetFile and a node's
#   codeEvidence stay off them, so neither a patch, a codemod nor the commit
#   of a gated side effect (which commits what change nodes patched) can
#   reach them. Paths are compared in lower case and without empty or "."
#   segments, so ./.ai//config and .AI/config are .ai/config. Targets already
#   in the pack are not judged again (packs leave these files out; a patch
#   target is always judged by scope.protected-path).
# custom:
#   code: PROTECTED_PATH
#   remediation: >-
#     mcpc's configuration, seed knowledge, memory, policies, state and client wiring are changed by
#     people, not agents; plan changes to repository files only.
#   severity: error
package mcpc.rules.plan["protected-target"]

import data.mcpc.lib.plan
import data.mcpc.lib.protected
import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	count(_protected_targets) > 0
	some i, node in plan.change_nodes
	node.targetFile in _protected_targets
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v targets %s, which is mcpc's own: %s", [
			node.nodeId, node.targetFile,
			protected.reason(node.targetFile),
		]),
		"path": sprintf("%s.targetFile", [plan.node_path(i)]),
	})
}

# guard: the distinct targetFiles outside the pack that are mcpc's own, each
# judged once. A target in the pack is not judged again, so a plan whose
# targets are all pack files (the usual one) pays nothing here: packs leave
# mcpc's own files out. A pack built before they did may still hold one; a
# plan may then name it, but apply_code_patch never writes it
# (scope.protected-path judges every patch target).
_protected_targets contains target if {
	some target in (plan.change_targets - turn.pack_files)
	is_string(target)
	protected.is_protected(target)
}
