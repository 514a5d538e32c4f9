# METADATA
# title: Turn facts
# description: |
#   Facts about this turn that several rule categories and mcpc.main share:
#   whether the verb is known, the budget arithmetic (the agent's slice, the
#   thresholds, the charge) and the effective state (BLOCKED_BUDGET for an agent
#   or session over its threshold, unless the work is COMPLETED or FAILED).
package mcpc.lib.turn

import data.mcpc.lib.tables

# METADATA
# description: the verb is in the verb catalogue
known_verb if tables.verbs[input.verb]

# METADATA
# description: the work is COMPLETED or FAILED
terminal if input.state in tables.terminal_states

# Budget arithmetic (ARCHITECTURE section 5, docs/policy-input.md): Go passes
# the configured limits (input.budget) and what was used; every threshold, the
# charge and the slice are computed here.

# METADATA
# scope: document
# description: |
#   the agent's budget slice: the one granted at its first turn; else a slice
#   of maxTokens from the work's pool while the granted slices fit in it; else
#   none (0): a new agentId cannot draw on the slices of the work's other agents
default slice_tokens := 0

slice_tokens := input.agent.sliceTokens if input.agent.sliceTokens > 0

slice_tokens := input.budget.maxTokens if {
	input.agent.sliceTokens == 0
	input.work.grantedTokens + input.budget.maxTokens <= input.budget.workMaxTokens
}

# METADATA
# description: the agent is blocked past this share (thresholdPercent) of its slice
threshold_tokens := floor(slice_tokens * input.budget.thresholdPercent)

# METADATA
# description: the MCP session is blocked past this share of sessionMaxTokens, in every work
session_threshold_tokens := floor(input.budget.sessionMaxTokens * input.budget.thresholdPercent)

# METADATA
# description: |
#   the most one request may cost: requestMaxPercent of a full slice's
#   threshold, so no single request can spend more than that share of it
request_max_tokens := floor(_full_threshold * input.budget.requestMaxPercent)

_full_threshold := floor(input.budget.maxTokens * input.budget.thresholdPercent)

# METADATA
# description: what this turn's request is charged, its tokens at most request_max_tokens
charge_tokens := min([input.request.tokens, request_max_tokens])

# METADATA
# description: the request costs more than one request may
request_too_large if input.request.tokens > request_max_tokens

# METADATA
# description: the work's pool had no slice left for this agent
no_slice if slice_tokens == 0

# METADATA
# description: this turn takes the agent past its threshold
agent_over_budget if input.agent.usedTokens + charge_tokens > threshold_tokens

# METADATA
# description: this turn takes the MCP session past its threshold, across all its works
session_over_budget if input.session.usedTokens + charge_tokens > session_threshold_tokens

# METADATA
# scope: document
# description: the agent has no slice, or this turn takes it or its session past its threshold
over_budget if no_slice

over_budget if agent_over_budget

over_budget if session_over_budget

# METADATA
# description: the agent sees BLOCKED_BUDGET
budget_blocked if {
	over_budget
	not terminal
}

# METADATA
# scope: document
# description: the state this agent is in for this turn
state := "BLOCKED_BUDGET" if budget_blocked

else := input.state

# METADATA
# description: the budget part of the decision, which Go charges and reports
budget := {
	"sliceTokens": slice_tokens,
	"thresholdTokens": threshold_tokens,
	"sessionThresholdTokens": session_threshold_tokens,
	"requestMaxTokens": request_max_tokens,
	"chargeTokens": charge_tokens,
}

# METADATA
# description: |
#   the verbs offered in state s: those of policies/data/states.json, without
#   initialize_work for a session over its threshold (a new work would
#   otherwise be a fresh budget)
verbs_in(s) := [verb | some verb in object.get(tables.states, s, []); not _closed_to_session(verb)]

_closed_to_session("initialize_work") if session_over_budget

# METADATA
# description: the verbs offered in the effective state
offered := verbs_in(state)

# METADATA
# description: the verb is offered in the effective state
verb_offered if input.verb in offered

# METADATA
# description: the request named a work that does not exist
work_missing if {
	# equalities on input, so OPA's rule index skips the body for a found work
	input.work.given == true
	input.work.found == false
}

# METADATA
# description: the plan node named by args.planNodeId in the accepted plan
plan_node := input.plan.nodes[input.args.planNodeId] if input.plan.accepted

# METADATA
# description: the context pack's files as a set
pack_files := {file | some file in input.pack.files}
