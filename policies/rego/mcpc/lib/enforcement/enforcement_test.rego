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
