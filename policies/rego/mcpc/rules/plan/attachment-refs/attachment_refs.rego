# METADATA
# title: Attachment refs
# description: |
#   A node that cites an attachment lists the attachments it relies on in
#   artifactRefs (seed 000 section 12).
# custom:
#   code: PLAN_EVIDENCE_INSUFFICIENT
#   remediation: "Add the attachment ids from contextPack.attachments to the node's artifactRefs."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["attachment-refs"]

import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	_cites_attachment
	some i, node in plan.nodes
	some k, citation in node.citations
	citation.source == "attachment"
	count(object.get(node, "artifactRefs", [])) == 0
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"node %v cites attachment %v but lists no artifactRefs",
			[node.nodeId, object.get(citation, "ref", null)],
		),
		"path": sprintf("%s.citations[%d]", [plan.node_path(i), k]),
	})
}

# guard: some distinct citation of the plan is an attachment
_cites_attachment if {
	some citation in plan.citations
	citation.source == "attachment"
}
