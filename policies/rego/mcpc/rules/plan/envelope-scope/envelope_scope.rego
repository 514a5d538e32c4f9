# METADATA
# title: Envelope scope
# description: |
#   The plan belongs to this work, agent, session, worktree and scope
#   allowlist: workId, agentId, runSessionId, worktreeRoot and
#   scopeAllowlistRef equal the server's values.
# custom:
#   code: PLAN_SCOPE_VIOLATION
#   remediation: "Copy workId, agentId, runSessionId, worktreeRoot and scopeAllowlistRef from planGraphSchema.envelope."
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["envelope-scope"]

import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some field, check in tables.plangraph.envelopeChecks
	check == "envelope-scope"
	value := object.get(input.submission, field, null)
	value != null
	value != input.envelope[field]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("planGraph.%s is %v but the server expects %v", [field, value, input.envelope[field]]),
		"path": sprintf("args.planGraph.%s", [field]),
	})
}
