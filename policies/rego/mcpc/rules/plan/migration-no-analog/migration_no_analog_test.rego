package mcpc.rules.plan["migration-no-analog_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["migration-no-analog"] as rule

test_fail_no_fallback if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "migrate adp-page-header"})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"migration-no-analog\"]",
		"message": "change node change-1 migrates adp-page-header, which has no SDF analog (MigrationRule mig-adp-page-header), without a fallback",
		"path": "args.planGraph.nodes[0].fallback",
		"remediation": concat("", [
			"State the fallback (a custom wrapper, or the rule's fallback policy) in the change node's fallback ",
			"field, or add an escalate node whose policyRefs cite the rule.",
		]),
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_fallback_stated if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "adp-page-header", "fallback": "wrap in app-page-header"})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}

test_success_escalated if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "adp-page-header"})
	esc := {"nodeId": "escalate-1", "kind": "escalate", "policyRefs": ["mig-adp-page-header"]}
	count(rule.report) == 0 with input as fixtures.plan_input([node, esc], {})
}
