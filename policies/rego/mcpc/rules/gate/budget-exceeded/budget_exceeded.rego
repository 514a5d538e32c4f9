# METADATA
# title: Budget exceeded
# description: |
#   The agent's used tokens plus this request's cost exceed the budget threshold,
#   so it is in BLOCKED_BUDGET, where only budget-safe verbs (initialize_work,
#   escalate, signal_task_complete) run. COMPLETED and FAILED works never block.
# custom:
#   code: BUDGET_EXCEEDED
#   remediation: >-
#     Finish with signal_task_complete, escalate for a person's help, or hand the remaining work to a sub-
#     agent with its own budget.
#   severity: error
#   suggestedVerb: signal_task_complete
package mcpc.rules.gate["budget-exceeded"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	turn.budget_blocked
	turn.known_verb
	not turn.verb_offered
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("agent %s has used %d tokens and this request costs %d, past the threshold of %d", [
			input.agent.id,
			input.agent.usedTokens,
			input.request.tokens,
			input.budget.thresholdTokens,
		]),
		"path": "agent.usedTokens",
	})
}
