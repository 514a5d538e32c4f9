package mcpc.rules.gate["budget-exceeded_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.gate["budget-exceeded"] as rule

_remediation := concat(" ", [
	"Finish with signal_task_complete or escalate for a person's help. When only this agent is over its",
	"slice, a sub-agent already granted one can take the remaining work; a work whose pool is spent or a",
	"session over its ceiling needs a person to raise budget.workMaxTokens or budget.sessionMaxTokens.",
])

_denial(message, path) := {
	"code": "BUDGET_EXCEEDED",
	"message": message,
	"path": path,
	"remediation": _remediation,
	"rule": "mcpc.rules.gate[\"budget-exceeded\"]",
	"severity": "error",
	"suggestedVerb": "signal_task_complete",
}

test_fail_read_over_budget if {
	r := rule.report with input as fixtures.with_input({"agent": {"usedTokens": 59990}})
	r == {_denial(
		"agent agent-1 has used 59990 tokens and this request costs 30, past its threshold of 60000 (600/1000 of its slice of 100000)",
		"agent.usedTokens",
	)}
}

test_fail_threshold_computed_from_percent if {
	r := rule.report with input as fixtures.with_input({
		"agent": {"usedTokens": 4990, "sliceTokens": 10000},
		"budget": {"maxTokens": 10000, "thresholdPermille": 500},
	})
	r == {_denial(
		"agent agent-1 has used 4990 tokens and this request costs 30, past its threshold of 5000 (500/1000 of its slice of 10000)",
		"agent.usedTokens",
	)}
}

test_fail_new_agent_without_slice if {
	r := rule.report with input as fixtures.with_input({
		"agent": {"id": "agent-9", "usedTokens": 0, "turns": 0, "sliceTokens": 0},
		"work": {"usedTokens": 150000, "grantedTokens": 500000},
	})
	r == {_denial(
		"work work-1 has granted 500000 tokens of its pool of 500000 to its agents: no slice of 100000 is left for agent agent-9",
		"work.grantedTokens",
	)}
}

test_success_new_agent_gets_a_slice_while_the_pool_has_one if {
	r := rule.report with input as fixtures.with_input({
		"agent": {"id": "agent-9", "usedTokens": 0, "turns": 0, "sliceTokens": 0},
		"work": {"usedTokens": 290000, "grantedTokens": 400000},
	})
	count(r) == 0
}

test_success_work_spending_never_blocks_an_agent_with_a_slice if {
	# the work's agents together spent more than ever before; this agent's slice is untouched
	r := rule.report with input as fixtures.with_input({"work": {"usedTokens": 499000, "grantedTokens": 500000}})
	count(r) == 0
}

test_fail_session_over_budget if {
	r := rule.report with input as fixtures.with_input({"session": {"usedTokens": 299990}})
	r == {_denial(
		"this MCP session has used 299990 tokens across its works and this request costs 30, past the session's threshold of 300000; a new work does not reset it",
		"session.usedTokens",
	)}
}

test_fail_session_over_budget_refuses_new_work if {
	r := rule.report with input as fixtures.with_input({
		"verb": "initialize_work",
		"state": "UNINITIALIZED",
		"work": {"id": "", "given": false, "found": false, "usedTokens": 0, "grantedTokens": 0},
		"agent": {"usedTokens": 0, "turns": 0, "sliceTokens": 0},
		"session": {"usedTokens": 299990},
	})
	r == {_denial(
		"this MCP session has used 299990 tokens across its works and this request costs 30, past the session's threshold of 300000; a new work does not reset it",
		"session.usedTokens",
	)}
}

test_success_new_work_when_only_the_agent_is_over if {
	# a new work is allowed while the session has room: the session's spending carries over
	r := rule.report with input as fixtures.with_input({
		"verb": "initialize_work",
		"agent": {"usedTokens": 59990},
	})
	count(r) == 0
}

test_fail_padded_request_is_charged_at_most_the_request_limit if {
	# 1e6 tokens sent, 12000 charged (0.2 of the 60000 threshold): 49000 + 12000 passes it
	r := rule.report with input as fixtures.with_input({
		"request": {"bytes": 4000000, "tokens": 1000000},
		"agent": {"usedTokens": 49000},
	})
	r == {_denial(
		"agent agent-1 has used 49000 tokens and this request costs 12000, past its threshold of 60000 (600/1000 of its slice of 100000)",
		"agent.usedTokens",
	)}
}

test_success_padded_request_under_the_threshold_is_not_blocked if {
	r := rule.report with input as fixtures.with_input({
		"request": {"bytes": 4000000, "tokens": 1000000},
		"agent": {"usedTokens": 47000},
	})
	count(r) == 0
}

test_success_escalate_over_budget if {
	r := rule.report with input as fixtures.with_input({
		"verb": "escalate",
		"agent": {"usedTokens": 59990},
	})
	count(r) == 0
}

test_success_exactly_at_threshold if {
	r := rule.report with input as fixtures.with_input({"agent": {"usedTokens": 59970}})
	count(r) == 0
}

test_success_completed_never_blocks if {
	r := rule.report with input as fixtures.with_input({
		"state": "COMPLETED",
		"verb": "signal_task_complete",
		"agent": {"usedTokens": 99999},
		"session": {"usedTokens": 499999},
	})
	count(r) == 0
}
