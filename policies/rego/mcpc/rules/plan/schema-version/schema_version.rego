# METADATA
# title: Schema version
# description: |
#   The plan is written for the server's PlanGraph schema version (2.0.0).
# custom:
#   code: PLAN_GRAPH_INVALID
#   remediation: "Set schemaVersion to the value in planGraphSchema.envelope."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["schema-version"]

import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some field, check in tables.plangraph.envelopeChecks
	check == "schema-version"
	value := object.get(input.submission, field, null)
	value != null
	value != input.envelope[field]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("planGraph.%s is %v but the server expects %v", [field, value, input.envelope[field]]),
		"path": sprintf("args.planGraph.%s", [field]),
	})
}
