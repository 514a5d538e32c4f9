# METADATA
# title: Budget exceeded
# description: |
#   The agent's used tokens plus this request's cost exceed its threshold, or
#   the work's agents' together exceed the work's, so it is in BLOCKED_BUDGET,
#   where only budget-safe verbs (initialize_work, escalate,
#   signal_task_complete) run. COMPLETED and FAILED works never block.
# custom:
#   code: BUDGET_EXCEEDED
#   remediation: >-
#     Finish with signal_task_complete or escalate for a person's help. When only this agent is over its
#     budget, a sub-agent with its own can take the remaining work; a work over its budget needs a person
#     to raise budget.workMaxTokens.
#   severity: error
#   suggestedVerb: signal_task_complete
package mcpc.rules.gate["budget-exceeded"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	turn.budget_blocked
	turn.agent_over_budget
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

report contains violation if {
	turn.budget_blocked
	turn.work_over_budget
	turn.known_verb
	not turn.verb_offered
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s %s have used %d tokens together and this request costs %d, past the work's threshold of %d", [
			"the agents of work", input.work.id,
			input.work.usedTokens,
			input.request.tokens,
			input.budget.workThresholdTokens,
		]),
		"path": "work.usedTokens",
	})
}
