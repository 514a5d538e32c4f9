# METADATA
# title: Strategy mismatch
# description: |
#   The plan follows the strategy the server selected: knowledgeStrategyId
#   equals it.
# custom:
#   code: PLAN_STRATEGY_MISMATCH
#   remediation: "Set knowledgeStrategyId to the strategyId of the work's strategy and follow its approach."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["strategy-mismatch"]

import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some field, check in tables.plangraph.envelopeChecks
	check == "strategy-mismatch"
	value := object.get(input.submission, field, null)
	value != null
	value != input.envelope[field]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("planGraph.%s is %v but the server expects %v", [field, value, input.envelope[field]]),
		"path": sprintf("args.planGraph.%s", [field]),
	})
}
