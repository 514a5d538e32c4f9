package mcpc.rules.plan["component-contract_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["component-contract"] as rule

_remediation := concat("", [
	"Use only the props the pack's policies.contracts list for the target component, or escalate for ",
	"the contract if it is missing.",
])

test_fail_invented_prop if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "componentMapping": {"fromTag": "adp-alert", "toTag": "sdf-alert", "props": ["severity", "message"]}})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"component-contract\"]",
		"message": "change node change-1 uses prop message on sdf-alert, which its contract does not declare (declared: heading, severity)",
		"path": "args.planGraph.nodes[0].componentMapping.props[1]",
		"remediation": _remediation,
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_undeclared_component if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "componentMapping": {"fromTag": "adp-card", "toTag": "sdf-card", "props": []}})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"component-contract\"]",
		"message": "change node change-1 maps to sdf-card, which no components.d.ts contract declares",
		"path": "args.planGraph.nodes[0].componentMapping.toTag",
		"remediation": _remediation,
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_declared_props if {
	node := fixtures.change_node("change-1", {"componentMapping": {"fromTag": "adp-alert", "toTag": "sdf-alert", "props": ["severity", "heading"]}})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}

test_success_declared_custom_event if {
	props := [{"name": "heading", "type": "string", "required": true}]
	contract := {"tag": "sdf-alert", "declared": true, "events": ["sdfDismiss"], "props": props}
	mapping := {"fromTag": "adp-alert", "toTag": "sdf-alert", "props": ["heading", "sdfDismiss"]}
	node := fixtures.change_node("change-1", {"componentMapping": mapping})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {"contracts": [contract]})
}
