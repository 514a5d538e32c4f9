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
# charge and the slice are computed here. Shares come in thousandths and
# floor(n × p / 1000) is written (x - x % 1000) / 1000 with x = n × p: every
# turn evaluates these, and small integers (unlike floats) cost OPA next to
# nothing.

# METADATA
# scope: document
# description: |
#   the agent's budget slice: the one granted at its first allowed turn; else a
#   slice of maxTokens from the work's pool while the granted slices fit in it
#   (Go keeps it once a turn is allowed); else none (0): a new agentId cannot
#   draw on the slices of the work's other agents
default slice_tokens := 0

slice_tokens := input.agent.sliceTokens if input.agent.sliceTokens > 0

slice_tokens := input.budget.maxTokens if {
	input.agent.sliceTokens == 0
	input.work.grantedTokens + input.budget.maxTokens <= input.budget.workMaxTokens
}

# METADATA
# description: |
#   the budget part of the decision, which Go charges and reports: the slice,
#   the agent's threshold (thresholdPermille of its slice), the session's
#   (thresholdPermille of sessionMaxTokens), the most one request may cost
#   (requestMaxPermille of a full slice's threshold) and what this request is
#   charged (its tokens, at most that); one body, as every turn evaluates it
budget := {
	"sliceTokens": slice_tokens,
	"thresholdTokens": (agent - (agent % 1000)) / 1000,
	"sessionThresholdTokens": (session - (session % 1000)) / 1000,
	"requestMaxTokens": request_max,
	"chargeTokens": min([input.request.tokens, request_max]),
} if {
	agent := slice_tokens * input.budget.thresholdPermille
	session := input.budget.sessionMaxTokens * input.budget.thresholdPermille
	full := input.budget.maxTokens * input.budget.thresholdPermille
	request := ((full - (full % 1000)) / 1000) * input.budget.requestMaxPermille
	request_max := (request - (request % 1000)) / 1000
}

# METADATA
# description: the agent is blocked past this many tokens
threshold_tokens := budget.thresholdTokens

# METADATA
# description: the MCP session is blocked past this many tokens, in every work
session_threshold_tokens := budget.sessionThresholdTokens

# METADATA
# description: the most one request may cost
request_max_tokens := budget.requestMaxTokens

# METADATA
# description: what this turn's request is charged
charge_tokens := budget.chargeTokens

# METADATA
# description: the request costs more than one request may
request_too_large if input.request.tokens > budget.requestMaxTokens

# METADATA
# description: the work's pool had no slice left for this agent
no_slice if slice_tokens == 0

# METADATA
# description: this turn takes the agent past its threshold
agent_over_budget if input.agent.usedTokens + budget.chargeTokens > budget.thresholdTokens

# METADATA
# description: this turn takes the MCP session past its threshold, across all its works
session_over_budget if input.session.usedTokens + budget.chargeTokens > budget.sessionThresholdTokens

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
# description: |
#   the verbs offered in state s: those of policies/data/states.json, without
#   initialize_work for a session over its threshold (a new work would
#   otherwise be a fresh budget)
verbs_in(s) := object.get(tables.states, s, []) if not session_over_budget

else := [verb | some verb in object.get(tables.states, s, []); verb != "initialize_work"]

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
# description: |
#   apply_code_patch names a change node with operation create and targets its
#   targetFile, a file the plan creates: it need not exist yet nor be in the
#   pack (create-scope judged where it may be)
creates_target if {
	input.verb == "apply_code_patch"
	plan_node.kind == "change"
	plan_node.operation == "create"
	input.paths.targetFile.canonical == plan_node.targetFile
}

# METADATA
# description: the context pack's files as a set
pack_files := {file | some file in input.pack.files}
