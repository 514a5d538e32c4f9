package mcpc.lib.enforcement_test

import data.mcpc.fixtures_test as fixtures
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

# a usual node (string editIntent, targetSymbols all strings) and its unusual
# twins migrate the same tags: the fast path and the general one agree
test_success_unusual_nodes_migrate_as_usual_ones if {
	usual := fixtures.change_node("change-1", {"editIntent": "Swap ADP-ALERT", "targetSymbols": ["adp-button"], "targetFile": "src/b.html"})
	mixed := fixtures.change_node("change-2", {"editIntent": "swap adp-alert", "targetSymbols": [7, "ADP-Button x"], "targetFile": "src/b.html"})
	numeric := fixtures.change_node("change-3", {"editIntent": 3, "targetSymbols": ["adp-alert adp-button"], "targetFile": "src/b.html"})
	tags := enforcement.migrated_tags with input as fixtures.plan_input([usual, mixed, numeric], {"fileTags": {}})
	tags == {0: {"adp-alert", "adp-button"}, 1: {"adp-alert", "adp-button"}, 2: {"adp-alert", "adp-button"}}
	count(enforcement.migrations) == 6 with input as fixtures.plan_input([usual, mixed, numeric], {"fileTags": {}})
}

# under the migration strategy a change node without a targetFile migrates
# nothing (it has no file to migrate); under another strategy it migrates
# what it names
test_success_a_node_without_a_target_file if {
	node := object.remove(fixtures.change_node("change-1", {"editIntent": "swap adp-alert"}), ["targetFile"])
	doc := fixtures.plan_input([node], {"fileTags": {}})
	count(enforcement.migrations) == 0 with input as doc
	neutral := object.union(doc, {"envelope": {"knowledgeStrategyId": "neutral"}})
	enforcement.migrated_tags == {0: {"adp-alert"}} with input as neutral
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
