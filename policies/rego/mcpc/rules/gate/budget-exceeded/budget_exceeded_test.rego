package mcpc.rules.gate["budget-exceeded_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.gate["budget-exceeded"] as rule

test_fail_read_over_budget if {
	r := rule.report with input as fixtures.with_input({"agent": {"usedTokens": 59990}})
	r == {{
		"code": "BUDGET_EXCEEDED",
		"message": "agent agent-1 has used 59990 tokens and this request costs 30, past the threshold of 60000",
		"path": "agent.usedTokens",
		"remediation": "Finish with signal_task_complete or escalate for a person's help. When only this agent is over its budget, a sub-agent with its own can take the remaining work; a work over its budget needs a person to raise budget.workMaxTokens.",
		"rule": "mcpc.rules.gate[\"budget-exceeded\"]",
		"severity": "error",
		"suggestedVerb": "signal_task_complete",
	}}
}

test_fail_work_over_budget if {
	r := rule.report with input as fixtures.with_input({"work": {"id": "work-1", "given": true, "found": true, "usedTokens": 299990}})
	r == {{
		"code": "BUDGET_EXCEEDED",
		"message": "the agents of work work-1 have used 299990 tokens together and this request costs 30, past the work's threshold of 300000",
		"path": "work.usedTokens",
		"remediation": "Finish with signal_task_complete or escalate for a person's help. When only this agent is over its budget, a sub-agent with its own can take the remaining work; a work over its budget needs a person to raise budget.workMaxTokens.",
		"rule": "mcpc.rules.gate[\"budget-exceeded\"]",
		"severity": "error",
		"suggestedVerb": "signal_task_complete",
	}}
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
	})
	count(r) == 0
}
