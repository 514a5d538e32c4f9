# METADATA
# title: Plan locked
# description: |
#   An accepted plan is replaced by a new submission only while none of its
#   nodes has started.
# custom:
#   code: PLAN_LOCKED
#   remediation: "Carry on with the accepted plan; a new plan is accepted only before any node has started."
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.plan["plan-locked"]

import data.mcpc.result

report contains violation if {
	input.plan.accepted
	input.plan.started
	violation := result.fail(rego.metadata.chain(), {
		"message": "the accepted plan has started (a node is past pending) and can no longer be replaced",
		"path": "plan.started",
	})
}
