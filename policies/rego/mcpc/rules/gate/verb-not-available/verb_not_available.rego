# METADATA
# title: Verb not available in this state
# description: |
#   The verb is known but not offered in the agent's effective state (seed 000
#   section 3, policies/data/states.json). Budget-blocked agents are judged by
#   budget-exceeded instead, and a request for a missing work by work-not-found.
# custom:
#   code: VERB_NOT_AVAILABLE
#   remediation: >-
#     Call a verb listed in capabilities for the current state; suggestedAction names one that moves the
#     work forward.
#   severity: error
package mcpc.rules.gate["verb-not-available"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	turn.known_verb
	not turn.verb_offered
	not turn.budget_blocked
	not turn.work_missing
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is not available in state %s (available: %s)", [
			input.verb,
			turn.state,
			concat(", ", turn.offered),
		]),
		"path": "verb",
		"suggestedVerb": _next_verb,
	})
}

# the verb that moves each state forward
_forward := {
	"UNINITIALIZED": "initialize_work",
	"PLANNING": "submit_execution_plan",
	"PLAN_ACCEPTED": "apply_code_patch",
	"COMPLETED": "signal_task_complete",
	"FAILED": "signal_task_complete",
}

_next_verb := _forward[turn.state]
