# METADATA
# title: Evidence minima
# description: |
#   Each change node meets the evidence policy: at least minRequirementSources
#   citations (source one of prompt, jira, swagger, attachment, policy, memory,
#   with a ref), at least minCodeEvidenceSources code evidence entries, and at
#   least minDistinctSources distinct sources (distinct source:ref pairs plus
#   distinct evidence files), unless allowSingleSourceWithGuard and the node
#   takes the low-evidence path (lowEvidenceGuard true, a non-empty
#   uncertaintyNote, requiresHumanReview true).
# custom:
#   code: PLAN_EVIDENCE_INSUFFICIENT
#   remediation: >-
#     Cite the requirement (prompt, Jira, Swagger, attachment, policy or memory) and the code the change
#     rests on; with a single source, set lowEvidenceGuard, uncertaintyNote and requiresHumanReview.
#   severity: error
#   suggestedVerb: escalate
package mcpc.rules.plan["evidence-minima"]

import data.mcpc.lib.plan
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some i, node in plan.nodes
	node.kind == "change"
	some k, citation in node.citations
	not _valid_citation(citation)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v: citation %d needs a source among %s and a ref", [
			node.nodeId, k,
			concat(", ", tables.plangraph.citationSources),
		]),
		"path": sprintf("%s.citations[%d]", [plan.node_path(i), k]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	node.kind == "change"
	is_array(node.citations)
	have := count(_citations(node))
	have < plan.evidence_policy.minRequirementSources
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v has %d requirement citations; the evidence policy requires %d", [
			node.nodeId, have,
			plan.evidence_policy.minRequirementSources,
		]),
		"path": sprintf("%s.citations", [plan.node_path(i)]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	node.kind == "change"
	is_array(node.codeEvidence)
	have := count(_evidence_files(node))
	have < plan.evidence_policy.minCodeEvidenceSources
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v has %d code evidence entries; the evidence policy requires %d", [
			node.nodeId, have,
			plan.evidence_policy.minCodeEvidenceSources,
		]),
		"path": sprintf("%s.codeEvidence", [plan.node_path(i)]),
	})
}

report contains violation if {
	some i, node in plan.nodes
	node.kind == "change"
	is_array(node.citations)
	is_array(node.codeEvidence)
	distinct := count({sprintf("%s:%s", [c.source, c.ref]) | some c in _citations(node)}) + count({e.file |
		some e in _evidence_files(node)
	})
	distinct < plan.evidence_policy.minDistinctSources
	not _guarded(node)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v has %d distinct sources; the evidence policy requires %d (or the guard)", [
			node.nodeId, distinct,
			plan.evidence_policy.minDistinctSources,
		]),
		"path": plan.node_path(i),
	})
}

_valid_citation(citation) if {
	citation.source in tables.plangraph.citationSources
	is_string(citation.ref)
	citation.ref != ""
}

_citations(node) := [citation | some citation in node.citations; _valid_citation(citation)]

_evidence_files(node) := [evidence |
	some evidence in node.codeEvidence
	is_string(evidence.file)
	evidence.file != ""
]

_guarded(node) if {
	plan.evidence_policy.allowSingleSourceWithGuard == true
	node.lowEvidenceGuard == true
	is_string(node.uncertaintyNote)
	trim_space(node.uncertaintyNote) != ""
	node.requiresHumanReview == true
}
