# METADATA
# title: Outcome not recorded
# description: |
#   A validation command ran after its turn's transaction, and its outcome could
#   not be recorded in the store (the store failed, or stayed locked past
#   store.busyTimeoutMs). The command's exit code and output are in the answer
#   as facts; the plan's node does not hold them. Go reports
#   input.execution.failures {reason: outcome_unrecorded} and this rule makes the
#   turn a recorded denial.
# custom:
#   code: EXEC_UNRECORDED
#   remediation: >-
#     The command ran but the plan does not know its outcome. Run the same validation again
#     (run_automation_recipe); if it keeps failing to record, tell the operator (mcpc explain-deny).
#   severity: error
#   suggestedVerb: run_automation_recipe
package mcpc.rules.execution["outcome-unrecorded"]

import data.mcpc.result

report contains violation if {
	some failure in input.execution.failures
	failure.reason == "outcome_unrecorded"
	violation := result.fail(rego.metadata.chain(), {
		"message": failure.message,
		"path": failure.path,
	})
}
