# METADATA
# title: Envelope fields
# description: |
#   Every envelope field of seed 002 is present (not null) at the top level of
#   the planGraph.
# custom:
#   code: PLAN_MISSING_REQUIRED_FIELDS
#   remediation: >-
#     Copy the envelope values from planGraphSchema.envelope of the initialize_work or escalate response
#     and fill in the rest (knowledgeStrategyReasons, evidencePolicy, planFingerprint, sourceTraceRefs).
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["envelope-fields"]

import data.mcpc.lib.plan
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some field in tables.plangraph.envelopeRequiredFields
	plan.missing(input.submission, field)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("planGraph is missing envelope field %q", [field]),
		"path": sprintf("args.planGraph.%s", [field]),
	})
}
