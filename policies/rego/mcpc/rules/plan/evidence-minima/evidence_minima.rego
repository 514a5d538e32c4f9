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
	not _fast
	some i, facts in _facts
	facts.valid != facts.citations
	node := plan.nodes[i]
	some k, citation in node.citations
	not _valid_citation(citation, _sources)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v: citation %d needs a source among %s and a ref", [
			node.nodeId, k,
			concat(", ", tables.plangraph.citationSources),
		]),
		"path": sprintf("%s.citations[%d]", [plan.node_path(i), k]),
	})
}

report contains violation if {
	not _fast
	policy := plan.evidence_policy
	some i, facts in _facts
	facts.citationsArray
	facts.valid < policy.minRequirementSources
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v has %d requirement citations; the evidence policy requires %d", [
			plan.nodes[i].nodeId, facts.valid,
			policy.minRequirementSources,
		]),
		"path": sprintf("%s.citations", [plan.node_path(i)]),
	})
}

report contains violation if {
	not _fast
	policy := plan.evidence_policy
	some i, facts in _facts
	facts.evidenceArray
	facts.evidence < policy.minCodeEvidenceSources
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v has %d code evidence entries; the evidence policy requires %d", [
			plan.nodes[i].nodeId, facts.evidence,
			policy.minCodeEvidenceSources,
		]),
		"path": sprintf("%s.codeEvidence", [plan.node_path(i)]),
	})
}

report contains violation if {
	not _fast
	policy := plan.evidence_policy
	some i, facts in _facts
	facts.citationsArray
	facts.evidenceArray
	facts.distinct < policy.minDistinctSources
	node := plan.nodes[i]
	not _guarded(node, policy)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %v has %d distinct sources; the evidence policy requires %d (or the guard)", [
			node.nodeId, facts.distinct,
			policy.minDistinctSources,
		]),
		"path": plan.node_path(i),
	})
}

# Fast path: aggregates over the plan prove that no change node falls short,
# so the per-node facts below are computed only for a plan that may. Every
# distinct citation of the plan is valid and every distinct code evidence
# entry of a change node names a file, so a change node's counts are the
# lengths of its arrays; the distinct sources are at least one per non-empty
# array. A node whose citations or codeEvidence cannot be counted leaves the
# fast path (its row is missing).
_fast if {
	policy := plan.evidence_policy
	every citation in plan.citations {
		_valid_citation(citation, _sources)
	}
	every evidence in plan.change_evidence {
		is_string(evidence.file)
		evidence.file != ""
	}
	every row in _rows {
		row[0] >= policy.minRequirementSources
		row[1] >= policy.minCodeEvidenceSources
		min([row[0], 1]) + min([row[1], 1]) >= policy.minDistinctSources
	}
}

# the distinct [citations, code evidence entries] of the change nodes,
# undefined when a node's cannot be counted: Go's count when it had every
# node's as arrays, else counted here
_rows := {row | some row in input.submissionFacts.aggregates.evidenceCounts} if {
	is_array(input.submissionFacts.aggregates.evidenceCounts)
} else := {row | some row in _count_rows} if {
	count(_count_rows) == count(plan.change_nodes)
}

# [citations, code evidence entries] of each change node
_count_rows := [[count(node.citations), count(node.codeEvidence)] | some node in plan.change_nodes]

_sources contains source if some source in tables.plangraph.citationSources

# change node index to its evidence counts, computed once per node: citations
# (entries), valid (valid citations), evidence (entries with a file), distinct
# (distinct source:ref pairs plus distinct evidence files)
_facts[i] := facts if {
	some i, node in plan.change_nodes
	valid := [[citation.source, citation.ref] |
		some citation in node.citations
		citation.source in _sources
		is_string(citation.ref)
		citation.ref != ""
	]
	files := [evidence.file |
		some evidence in node.codeEvidence
		is_string(evidence.file)
		evidence.file != ""
	]
	facts := {
		"citations": count([1 | some _ in node.citations]),
		"citationsArray": is_array(object.get(node, "citations", null)),
		"valid": count(valid),
		"evidence": count(files),
		"evidenceArray": is_array(object.get(node, "codeEvidence", null)),
		"distinct": count({pair | some pair in valid}) + count({file | some file in files}),
	}
}

_valid_citation(citation, sources) if {
	citation.source in sources
	is_string(citation.ref)
	citation.ref != ""
}

_guarded(node, policy) if {
	policy.allowSingleSourceWithGuard == true
	node.lowEvidenceGuard == true
	is_string(node.uncertaintyNote)
	trim_space(node.uncertaintyNote) != ""
	node.requiresHumanReview == true
}
