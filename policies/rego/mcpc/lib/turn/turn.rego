# METADATA
# title: Turn facts
# description: |
#   Facts about this turn that several rule categories and mcpc.main share:
#   whether the verb is known, the agent's budget position and the effective
#   state (BLOCKED_BUDGET for an agent over its threshold, unless the work is
#   COMPLETED or FAILED).
package mcpc.lib.turn

import data.mcpc.lib.tables

# METADATA
# description: the verb is in the verb catalogue
known_verb if tables.verbs[input.verb]

# METADATA
# description: the work is COMPLETED or FAILED
terminal if input.state in tables.terminal_states

# METADATA
# description: this turn takes the agent past its budget threshold
agent_over_budget if input.agent.usedTokens + input.request.tokens > input.budget.thresholdTokens

# METADATA
# description: |
#   this turn takes the work's agents together past the work's threshold: a
#   new agentId starts its own budget, not the work's
work_over_budget if input.work.usedTokens + input.request.tokens > input.budget.workThresholdTokens

# METADATA
# scope: document
# description: this turn takes the agent, or the work, past its budget threshold
over_budget if agent_over_budget

over_budget if work_over_budget

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
# description: the verbs offered in the effective state
offered := object.get(tables.states, state, [])

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
