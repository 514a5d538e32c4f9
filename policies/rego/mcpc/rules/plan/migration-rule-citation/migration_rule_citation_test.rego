package mcpc.rules.plan["migration-rule-citation_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["migration-rule-citation"] as rule

_remediation := concat("", [
	"Add the MigrationRule id to the change node's policyRefs; the pack's policies.migrationRules ",
	"and planGraphSchema.enforcementObligations list the rules in scope.",
])

test_fail_named_tag_uncited if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "replace adp-alert with sdf-alert"})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"migration-rule-citation\"]",
		"message": "change node change-1 migrates adp-alert but does not cite MigrationRule mig-adp-alert (status approved) in policyRefs",
		"path": "args.planGraph.nodes[0].policyRefs",
		"remediation": _remediation,
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_file_uses_tag_under_migration_strategy if {
	node := fixtures.change_node("change-1", {"policyRefs": ["mig-adp-alert"]})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"rule": "mcpc.rules.plan[\"migration-rule-citation\"]",
		"message": "change node change-1 migrates adp-card but does not cite MigrationRule mig-adp-card (status unknown) in policyRefs",
		"path": "args.planGraph.nodes[0].policyRefs",
		"remediation": _remediation,
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_cited if {
	node := fixtures.change_node("change-1", {"policyRefs": ["mig-adp-alert", "mig-adp-card"], "targetSymbols": ["adp-alert"]})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}

test_success_file_tags_only_under_migration_strategy if {
	node := fixtures.change_node("change-1", {})
	doc := object.union(fixtures.plan_input([node], {}), {"envelope": object.union(fixtures.envelope, {"knowledgeStrategyId": "ui_aggrid_feature"})})
	count(rule.report) == 0 with input as doc
}

test_success_no_rules_no_citations if {
	node := fixtures.change_node("change-1", {"editIntent": "replace adp-alert"})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {"migrationRules": []})
}
