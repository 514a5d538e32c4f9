package mcpc.rules.plan["prose-policy-citation_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["prose-policy-citation"] as rule

test_fail_grounded_policy_uncited if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "show the status in an sdf-alert"})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"prose-policy-citation\"]",
		"message": "change node change-1 touches sdf-alert, which grounded policy prose:docs/ui-guidelines.md:5 (docs/ui-guidelines.md:5) governs, without citing it in policyRefs",
		"path": "args.planGraph.nodes[0].policyRefs",
		"remediation": concat("", [
			"Read the policy (the pack's policies.prose, enforceable entries) and cite its id in the change ",
			"node's policyRefs.",
		]),
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_cited if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "sdf-alert", "policyRefs": ["prose:docs/ui-guidelines.md:5"]})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}

test_success_ungrounded_never_denies if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "use an sdf-data-grid"})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}

test_success_out_of_scope if {
	scoped := [object.union(p, {"scopes": ["src/app/orders"]}) | some p in fixtures.domain_enforcement.prose]
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "sdf-alert"})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {"prose": scoped})
}
