# METADATA
# title: Unfetched citation
# description: |
#   A citation of a Jira ticket or an API operation (source jira or swagger)
#   names one the work fetched at initialize_work (input.requirements.fetched,
#   listed with their citation in contextPack.attachments): a plan cannot rest
#   on a requirement nobody read.
# custom:
#   code: PLAN_CITATION_UNFETCHED
#   remediation: >-
#     Cite only the tickets and operations contextPack.attachments lists (their citation field); to rely on another,
#     start a work whose prompt or lexemes name it.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["citation-unfetched"]

import data.mcpc.lib.plan
import data.mcpc.result

_sources := {"jira", "swagger"}

report contains violation if {
	_cites_requirements
	some i, node in plan.nodes
	some k, citation in node.citations
	citation.source in _sources
	not _fetched(citation)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"node %v cites %s %v, which this work did not fetch",
			[node.nodeId, citation.source, object.get(citation, "ref", null)],
		),
		"path": sprintf("%s.citations[%d]", [plan.node_path(i), k]),
	})
}

_fetched(citation) if citation.ref in input.requirements.fetched[citation.source]

# guard: some distinct citation of the plan is a ticket or an operation
_cites_requirements if {
	some citation in plan.citations
	citation.source in _sources
}
