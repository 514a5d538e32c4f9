# METADATA
# title: Stale pack
# description: |
#   The plan was built against this context pack, repository snapshot and
#   policy version: contextPackHash, contextPackRef, repoSnapshotId and
#   policyVersionSet equal the server's current values (a plan built against
#   an older pack, or under other policies, is rejected).
# custom:
#   code: PLAN_STALE_PACK
#   remediation: >-
#     Rebuild the plan against the current pack: copy contextPackHash, contextPackRef, repoSnapshotId and
#     policyVersionSet from the latest planGraphSchema.envelope and re-check the plan's evidence.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["stale-pack"]

import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	some field, check in tables.plangraph.envelopeChecks
	check == "stale-pack"
	value := object.get(input.submission, field, null)
	value != null
	value != input.envelope[field]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("planGraph.%s is %v but the server expects %v", [field, value, input.envelope[field]]),
		"path": sprintf("args.planGraph.%s", [field]),
	})
}
