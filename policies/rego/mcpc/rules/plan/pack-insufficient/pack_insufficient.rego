# METADATA
# title: Pack insufficient
# description: |
#   The context pack was built with an insufficiency (a template that could not
#   be parsed, seed 000 gotcha 7); no plan is accepted until an escalation
#   resolves it.
# custom:
#   code: PACK_INSUFFICIENT
#   remediation: >-
#     Escalate for the missing anchors listed in packInsufficiency, then resubmit the plan against the
#     grown pack.
#   severity: error
#   suggestedVerb: escalate
package mcpc.rules.plan["pack-insufficient"]

import data.mcpc.result

report contains violation if {
	input.packInsufficient == true
	violation := result.fail(rego.metadata.chain(), {
		"message": "the context pack is insufficient (an unparsed template); escalate before submitting a plan",
		"path": "packInsufficient",
	})
}
