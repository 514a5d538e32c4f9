package mcpc.lib.enforcement_test

import data.mcpc.lib.enforcement

_graph := {"migrationRules": [{"id": "graph-alert", "fromTag": "adp-alert", "toTag": "sdf-alert", "status": "approved"}], "contracts": [{"tag": "sdf-alert", "declared": true, "props": [{"name": "heading"}]}]}

_domain := {"adp_sdf": {
	"migrationRules": [
		{"id": "domain-alert", "fromTag": "adp-alert", "toTag": "sdf-banner", "status": "approved"},
		{"id": "domain-button", "fromTag": "adp-button", "toTag": "sdf-button", "status": "candidate"},
	],
	"contracts": [
		{"tag": "sdf-alert", "declared": true, "props": [{"name": "other"}]},
		{"tag": "sdf-button", "declared": true, "props": [{"name": "variant"}]},
	],
}}

test_success_domain_bundle_fills_tags_the_graph_lacks if {
	rules := enforcement.migration_rules with input.enforcement as _graph with data.mcpcdomain as _domain # regal ignore:unresolved-reference
	rules == [
		{"id": "graph-alert", "fromTag": "adp-alert", "toTag": "sdf-alert", "status": "approved"},
		{"id": "domain-button", "fromTag": "adp-button", "toTag": "sdf-button", "status": "candidate"},
	]
}

test_success_domain_bundle_contracts_behind_the_graphs if {
	props := enforcement.contract_props with input.enforcement as _graph with data.mcpcdomain as _domain # regal ignore:unresolved-reference
	props == {"sdf-alert": {"heading"}, "sdf-button": {"variant"}}
}

test_success_no_domain_bundle_is_the_graph_alone if {
	rules := enforcement.migration_rules with input.enforcement as _graph
	rules == _graph.migrationRules
}

_constraint := {"id": "mc-grid-no-table", "ifContains": "sdf-data-grid", "forbid": ["adp-table"], "reason": "one grid per page"}

_with_constraint := {
	"now": "2026-11-25T00:00:00Z", "memories": [], "migrationRules": [], "contracts": [], "prose": [],
	"macroConstraints": [_constraint], "fileTags": {},
}

test_success_macro_constraint_is_a_graph_plan_rule if {
	rules := enforcement.plan_rules with input.enforcement as _with_constraint
	rules == {{
		"id": "mc-grid-no-table", "source": "graph", "condition": {"tags": ["sdf-data-grid"]},
		"requiredSteps": [], "forbiddenTags": ["adp-table"], "denyCode": "PLAN_POLICY_VIOLATION",
		"message": "one grid per page",
	}}
}

test_success_macro_constraint_in_pack_and_obligations if {
	policies := enforcement.pack_policies with input.enforcement as _with_constraint
	policies == [{"kind": "MacroConstraint", "id": "mc-grid-no-table", "ifContains": "sdf-data-grid", "forbid": ["adp-table"], "reason": "one grid per page"}]
	obligations := enforcement.obligations with input.enforcement as _with_constraint
	obligations == [{
		"policy": "mc-grid-no-table", "kind": "MacroConstraint", "components": ["sdf-data-grid", "adp-table"],
		"must": "add none of adp-table to a page that contains sdf-data-grid",
	}]
}

test_success_domain_strategy_overrides_carry_their_source if {
	domain := {"adp_sdf": {"strategyOverrides": [{"when": {"tags": ["adp-alert"]}, "strategy": "migration_adp_to_sdf"}, "not a row"]}}
	rows := enforcement.strategy_overrides with data.mcpcdomain as domain # regal ignore:unresolved-reference
	rows == [{"when": {"tags": ["adp-alert"]}, "strategy": "migration_adp_to_sdf", "source": "bundle:adp_sdf:strategyOverrides[0]"}]
}
