package mcpc.rules.plan["component-required-prop_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["component-required-prop"] as rule

test_fail_mapping_without_required_prop if {
	node := fixtures.change_node("change-1", {"componentMapping": {"fromTag": "adp-alert", "toTag": "sdf-alert", "props": ["severity"]}})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"component-required-prop\"]",
		"message": "change node change-1 maps to sdf-alert without its required prop heading",
		"path": "args.planGraph.nodes[0].componentMapping.props",
		"remediation": concat(" ", [
			"List every required prop of the target component (the pack's policies.contracts mark them required)",
			"in componentMapping.props, mapping an attribute of the old tag to it.",
		]),
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_required_prop_listed if {
	node := fixtures.change_node("change-1", {"componentMapping": {"fromTag": "adp-alert", "toTag": "sdf-alert", "props": ["heading"]}})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}

test_success_undeclared_target_is_another_rules if {
	node := fixtures.change_node("change-1", {"componentMapping": {"fromTag": "adp-card", "toTag": "sdf-card", "props": []}})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}
