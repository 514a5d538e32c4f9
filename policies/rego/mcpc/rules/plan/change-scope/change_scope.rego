# METADATA
# title: Change scope
# description: |
#   A change node targets a file of the context pack and cites code evidence
#   only from pack files (paths compared verbatim with contextPack.files). A
#   node with operation create targets a new file instead (create-scope).
# custom:
#   code: PLAN_SCOPE_VIOLATION
#   remediation: "Target and cite only files listed in contextPack.files; escalate to add a file to the pack first."
#   severity: error
#   suggestedVerb: escalate
package mcpc.rules.plan["change-scope"]

import data.mcpc.lib.plan
import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	pack_files := turn.pack_files
	count(plan.change_targets - pack_files) > 0
	some i, node in plan.change_nodes
	is_string(node.targetFile)
	not node.targetFile in pack_files
	not node.operation == "create"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v targets %s, which is not in the context pack",
			[node.nodeId, node.targetFile],
		),
		"path": sprintf("%s.targetFile", [plan.node_path(i)]),
	})
}

report contains violation if {
	pack_files := turn.pack_files
	_evidence_outside_pack
	some i, node in plan.change_nodes
	some k, evidence in node.codeEvidence
	not evidence.file in pack_files
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v cites code evidence from %v, which is not in the context pack",
			[node.nodeId, object.get(evidence, "file", null)],
		),
		"path": sprintf("%s.codeEvidence[%d].file", [plan.node_path(i), k]),
	})
}

# guard: some distinct code evidence entry of a change node names no pack file
_evidence_outside_pack if {
	pack_files := turn.pack_files
	some evidence in plan.change_evidence
	not evidence.file in pack_files
}
