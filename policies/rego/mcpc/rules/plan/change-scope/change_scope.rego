# METADATA
# title: Change scope
# description: |
#   A change node targets a file of the context pack and cites code evidence
#   only from pack files (paths compared verbatim with contextPack.files).
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
	some i, node in plan.nodes
	node.kind == "change"
	is_string(node.targetFile)
	not node.targetFile in turn.pack_files
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v targets %s, which is not in the context pack", [node.nodeId, node.targetFile]),
		"path": sprintf("%s.targetFile", [plan.node_path(i)]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	node.kind == "change"
	some k, evidence in node.codeEvidence
	not evidence.file in turn.pack_files
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v cites code evidence from %v, which is not in the context pack",
			[node.nodeId, object.get(evidence, "file", null)],
		),
		"path": sprintf("%s.codeEvidence[%d].file", [plan.node_path(i), k]),
	})
}
