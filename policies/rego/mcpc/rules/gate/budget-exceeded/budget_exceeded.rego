# METADATA
# title: Budget exceeded
# description: |
#   The agent is in BLOCKED_BUDGET, where only budget-safe verbs (escalate,
#   signal_task_complete, and initialize_work while the session is under its
#   ceiling) run: its used tokens plus this request's charge pass its
#   threshold (thresholdPercent of its slice), the work's pool had no slice
#   left for a new agentId, or its MCP session passed the session's threshold
#   across all its works (then no new work starts either). Another agent's
#   spending never blocks this one. COMPLETED and FAILED works never block.
# custom:
#   code: BUDGET_EXCEEDED
#   remediation: >-
#     Finish with signal_task_complete or escalate for a person's help. When only this agent is over its
#     slice, a sub-agent already granted one can take the remaining work; a work whose pool is spent or a
#     session over its ceiling needs a person to raise budget.workMaxTokens or budget.sessionMaxTokens.
#   severity: error
#   suggestedVerb: signal_task_complete
package mcpc.rules.gate["budget-exceeded"]

import data.mcpc.lib.turn
import data.mcpc.result

_refused if {
	turn.budget_blocked
	turn.known_verb
	not turn.verb_offered
}

report contains violation if {
	_refused
	turn.agent_over_budget
	not turn.no_slice
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(_agent_format, [
			input.agent.id,
			input.agent.usedTokens,
			turn.charge_tokens,
			turn.threshold_tokens,
			input.budget.thresholdPermille,
			turn.slice_tokens,
		]),
		"path": "agent.usedTokens",
	})
}

report contains violation if {
	_refused
	turn.no_slice
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(_pool_format, [
			input.work.id,
			input.work.grantedTokens,
			input.budget.workMaxTokens,
			input.budget.maxTokens,
			input.agent.id,
		]),
		"path": "work.grantedTokens",
	})
}

report contains violation if {
	_refused
	turn.session_over_budget
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(_session_format, [
			input.session.usedTokens,
			turn.charge_tokens,
			turn.session_threshold_tokens,
		]),
		"path": "session.usedTokens",
	})
}

_agent_format := concat(" ", [
	"agent %s has used %d tokens and this request costs %d,",
	"past its threshold of %d (%d/1000 of its slice of %d)",
])

_pool_format := concat(" ", [
	"work %s has granted %d tokens of its pool of %d to its agents:",
	"no slice of %d is left for agent %s",
])

_session_format := concat(" ", [
	"this MCP session has used %d tokens across its works and this request costs %d,",
	"past the session's threshold of %d; a new work does not reset it",
])
