# METADATA
# title: Work incomplete
# description: |
#   signal_task_complete enters COMPLETED only with an accepted plan and no
#   remaining nodes (seed 000 section 8). In COMPLETED or FAILED it is always
#   allowed and the state stays.
# custom:
#   code: WORK_INCOMPLETE
#   remediation: >-
#     Finish the remaining plan nodes (patch change nodes, pass their validations, execute side effects,
#     resolve escalations) before signalling completion; progress lists what remains.
#   severity: error
package mcpc.rules.complete["work-incomplete"]

import data.mcpc.lib.progress
import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	input.verb == "signal_task_complete"
	not turn.terminal
	not input.plan.accepted
	violation := result.fail(rego.metadata.chain(), {
		"message": "no execution plan has been accepted for this work",
		"path": "plan.accepted",
		"suggestedVerb": "submit_execution_plan",
	})
}

report contains violation if {
	input.verb == "signal_task_complete"
	not turn.terminal
	input.plan.accepted
	progress.counts.remainingNodes > 0
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%d of %d plan nodes remain (%d completed)", [
			progress.counts.remainingNodes,
			progress.counts.totalNodes,
			progress.counts.completedNodes,
		]),
		"path": "nodeStates",
		"suggestedVerb": _continue_verb,
	})
}

default _continue_verb := "run_automation_recipe"

_continue_verb := "apply_code_patch" if {
	some node in input.plan.nodes
	node.kind == "change"
	node.status == "pending"
}
