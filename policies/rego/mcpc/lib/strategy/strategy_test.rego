package mcpc.lib.strategy_test

import data.mcpc.fixtures_test as fixtures
import data.mcpc.lib.strategy

_with(prompt, lexemes, signals) := fixtures.with_input({
	"verb": "initialize_work",
	"prompt": prompt,
	"lexemes": lexemes,
	"strategySignals": signals,
})

test_success_migration_from_lexeme if {
	s := strategy.selected with input as _with("Move the dashboard grid", ["adp-data-table"], [])
	s.strategyId == "migration_adp_to_sdf"
	s.suggestedSplits == ["inventory-scan", "migration-per-component", "validation-suite"]
	s.contextSignature == {
		"migrationAdpDetected": true, "taskTypeGuess": "migration", "hasSwagger": false,
		"mentionsAgGrid": false, "mentionsFederation": false, "hasJira": false,
	}
	s.reasons == [{"reason": "migrationAdpDetected: lexeme adp-data-table", "evidenceRefs": ["lexeme:adp-data-table"]}]
}

test_success_debug_from_words if {
	s := strategy.selected with input as _with("Fix the crash on the orders page (SHOP-142)", [], [])
	s.strategyId == "debug_symptom_trace"
	s.contextSignature.taskTypeGuess == "debug"
	s.contextSignature.hasJira == true
}

test_success_api_contract_from_swagger if {
	s := strategy.selected with input as _with("Add the new orders endpoint from the OpenAPI spec", [], [])
	s.strategyId == "api_contract_feature"
	s.contextSignature.hasSwagger == true
}

test_success_default_ag_grid if {
	s := strategy.selected with input as _with("Add a column to the ag-Grid on the dashboard", [], [])
	s.strategyId == "ui_aggrid_feature"
	s.contextSignature.mentionsAgGrid == true
}

test_success_override_after_signature if {
	s := strategy.selected with input as _with("Fix the broken dashboard", [], [
		{"featureFlag": "migration_adp_present", "value": true},
		{"featureFlag": "hasSwagger", "value": true},
		{"featureFlag": "hasSwagger", "value": false},
	])
	s.strategyId == "migration_adp_to_sdf"
	s.contextSignature.migrationAdpDetected == true
	s.contextSignature.hasSwagger == false
	{"reason": "override: migrationAdpDetected set to true", "evidenceRefs": ["strategySignal:migrationAdpDetected", "strategySignal"]} in s.reasons
}

test_success_memory_signal_overrides_before_graph_signals if {
	memory := {
		"id": "mem-dashboard-migrates",
		"state": "approved",
		"enforcementType": "strategy_signal",
		"strategySignal": {"featureFlag": "migration_adp_present", "value": true, "reason": "dashboard is mid-migration"},
	}
	expired := object.union(memory, {"id": "mem-old", "expiresAt": "2026-01-01T00:00:00Z", "strategySignal": {"featureFlag": "task_type_guess", "value": "debug"}})
	s := strategy.selected with input as object.union(_with("Rename the Save button", [], []), {"enforcement": {
		"now": "2026-11-25T00:00:00Z",
		"memories": [memory, expired],
	}})
	s.strategyId == "migration_adp_to_sdf"
	s.contextSignature.taskTypeGuess != "debug"
	{"reason": "override: migrationAdpDetected set to true", "evidenceRefs": ["strategySignal:migrationAdpDetected", "memory:mem-dashboard-migrates"]} in s.reasons
}

test_success_override_can_clear_migration if {
	s := strategy.selected with input as _with("Migrate adp-alert", ["adp-alert"], [{"featureFlag": "migrationAdpDetected", "value": false}])
	s.strategyId == "general_change"
}

test_success_neutral_for_a_plain_change if {
	s := strategy.selected with input as _with("Rename the Save button to Submit", ["save"], [])
	s.strategyId == "general_change"
	s.contextSignature.mentionsAgGrid == false
	s.reasons == [{"reason": "default: no migration, debug, API or ag-Grid signal", "evidenceRefs": []}]
}

test_success_ag_grid_only_when_named if {
	s := strategy.selected with input as _with("Sort the orders grid by date in ag-Grid", [], [])
	s.strategyId == "ui_aggrid_feature"
}

test_success_graph_signal_forces_migration if {
	s := strategy.selected with input as object.union(_with("Migrate the order detail page to SDF", [], []), {"enforcement": {
		"now": "2026-11-25T00:00:00Z",
		"memories": [],
		"migrationRules": [{"id": "mig-adp-alert", "fromTag": "adp-alert", "toTag": "sdf-alert", "status": "approved"}],
		"fileTags": {"src/app/orders/detail/order-detail.component.html": ["adp-alert", "sdf-alert"]},
	}})
	s.strategyId == "migration_adp_to_sdf"
	{"reason": "override: migrationAdpDetected set to true", "evidenceRefs": ["strategySignal:migrationAdpDetected", "graph:MigrationRule:mig-adp-alert"]} in s.reasons
}

test_success_no_graph_signal_without_a_migration_ask if {
	s := strategy.selected with input as object.union(_with("Rename the Save button on the order detail page", [], []), {"enforcement": {
		"now": "2026-11-25T00:00:00Z",
		"memories": [],
		"migrationRules": [{"id": "mig-adp-alert", "fromTag": "adp-alert", "toTag": "sdf-alert", "status": "approved"}],
		"fileTags": {"src/app/orders/detail/order-detail.component.html": ["adp-alert"]},
	}})
	s.strategyId != "migration_adp_to_sdf"
}

# a fetched API operation selects api_contract_feature though the prompt never
# says "api", and the fetched tickets' fields feed the signature
test_success_api_contract_from_fetched_operation if {
	s := strategy.selected with input as object.union(_with("Show the fulfilment status in the orders grid", [], []), {"requirements": {
		"fetched": {"jira": ["SHOP-42"], "swagger": ["GET /orders/{orderId}"]},
		"hasSwagger": true, "text": ["Orders grid shows the status", "Story", "orders"], "failures": [], "trace": [],
	}})
	s.strategyId == "api_contract_feature"
	s.contextSignature.hasSwagger == true
	{"reason": "hasSwagger: operation GET /orders/{orderId} fetched", "evidenceRefs": ["swagger:GET /orders/{orderId}"]} in s.reasons
}

test_success_ticket_fields_feed_the_signature if {
	s := strategy.selected with input as object.union(_with("Work on SHOP-7", [], []), {"requirements": {
		"fetched": {"jira": ["SHOP-7"], "swagger": []},
		"hasSwagger": false, "text": ["Checkout crashes on an empty cart", "Bug"], "failures": [], "trace": [],
	}})
	s.strategyId == "debug_symptom_trace"
}

test_success_nothing_fetched_keeps_the_prompt_signature if {
	s := strategy.selected with input as _with("Show the fulfilment status in the orders grid", [], [])
	s.contextSignature.hasSwagger == false
}

# the signature says which proof chains initialize_work walks

test_success_neutral_prompt_walks_no_chain if {
	d := strategy.chain_decision with input as _with("Rename the Save button on the order detail page", ["save"], [])
	d.proofChains == []
	d.strategyId == "general_change"
	d.decidedBy == {"layer": "decisionTable", "source": "policies/data/strategies.json"}
}

test_success_grid_prompt_walks_the_ag_grid_chain if {
	d := strategy.chain_decision with input as _with("Clicking an order id in the orders grid cell renderer opens the detail page", ["OrdersGridComponent"], [])
	d.proofChains == ["ag-grid"]
	d.contextSignature.mentionsAgGrid == true
	d.strategyId == "ui_aggrid_feature"
}

test_success_federation_prompt_walks_the_federation_chain if {
	d := strategy.chain_decision with input as _with("The billing remote loaded through module federation shows an empty invoice list", [], [])
	d.proofChains == ["federation"]
	d.contextSignature.mentionsFederation == true
}

test_success_both_chains_in_name_order if {
	d := strategy.chain_decision with input as _with("Add an ag-Grid column to the federated billing remote", [], [])
	d.proofChains == ["ag-grid", "federation"]
}

test_success_memory_signal_asks_for_a_chain if {
	memory := {
		"id": "mem-orders-is-a-grid",
		"state": "approved",
		"enforcementType": "strategy_signal",
		"strategySignal": {"featureFlag": "mentions_ag_grid", "value": true},
	}
	d := strategy.chain_decision with input as object.union(_with("Change how order ids open", [], []), {"enforcement": {
		"now": "2026-11-25T00:00:00Z",
		"memories": [memory],
	}})
	d.proofChains == ["ag-grid"]
}

test_success_override_can_drop_a_chain if {
	d := strategy.chain_decision with input as _with("Sort the ag-Grid by date", [], [{"featureFlag": "mentionsAgGrid", "value": false}])
	d.proofChains == []
}

test_success_selected_names_its_chains if {
	s := strategy.selected with input as _with("Sort the orders in ag-Grid", [], [])
	s.proofChains == ["ag-grid"]
	{"reason": "mentionsAgGrid: \"ag-grid\"", "evidenceRefs": ["prompt"]} in s.reasons
}

# a domain bundle's strategyOverrides are the last layer

_domain := {"adp_sdf": {"strategyOverrides": [
	{"when": {"tags": ["adp-alert"], "words": ["modernize"]}, "strategy": "migration_adp_to_sdf", "note": "team hint"},
	{"when": {"tags": ["adp-alert"]}, "strategy": "no_such_strategy"},
	{"when": {"colour": ["blue"]}, "strategy": "debug_symptom_trace"},
]}}

_alert_page := {"enforcement": {
	"now": "2026-11-25T00:00:00Z",
	"memories": [],
	"migrationRules": [],
	"fileTags": {"src/app/dashboard/dashboard.component.html": ["adp-alert"]},
}}

test_success_bundle_override_chooses_the_strategy if {
	s := strategy.selected with input as object.union(_with("Modernize the alert on the dashboard", [], []), _alert_page)
		with data.mcpcdomain as _domain # regal ignore:unresolved-reference
	s.strategyId == "migration_adp_to_sdf"
	s.decidedBy == {"layer": "bundleOverride", "source": "bundle:adp_sdf:strategyOverrides[0]"}
	{"reason": "bundle override: migration_adp_to_sdf (team hint)", "evidenceRefs": ["bundle:adp_sdf:strategyOverrides[0]"]} in s.reasons
	s.suggestedSplits == ["inventory-scan", "migration-per-component", "validation-suite"]
}

test_success_bundle_override_needs_every_condition if {
	s := strategy.selected with input as object.union(_with("Rename the alert title on the dashboard", [], []), _alert_page)
		with data.mcpcdomain as _domain # regal ignore:unresolved-reference
	s.strategyId == "general_change"
	s.decidedBy.layer == "decisionTable"
}

test_success_bundle_override_on_a_prompt_tag if {
	s := strategy.selected with input as _with("Modernize every adp-alert", [], [])
		with data.mcpcdomain as _domain # regal ignore:unresolved-reference
	s.decidedBy.layer == "bundleOverride"
}

test_success_no_domain_bundle_no_override if {
	s := strategy.selected with input as object.union(_with("Modernize the alert on the dashboard", [], []), _alert_page)
	s.strategyId == "general_change"
	s.decidedBy.layer == "decisionTable"
}

test_success_unknown_strategy_or_condition_never_applies if {
	domain := {"adp_sdf": {"strategyOverrides": [
		{"when": {"tags": ["adp-alert"]}, "strategy": "no_such_strategy"},
		{"when": {"colour": ["blue"]}, "strategy": "debug_symptom_trace"},
		{"when": {}, "strategy": "debug_symptom_trace"},
	]}}
	s := strategy.selected with input as object.union(_with("Modernize the alert on the dashboard", [], []), _alert_page)
		with data.mcpcdomain as domain # regal ignore:unresolved-reference
	s.strategyId == "general_change"
}

test_success_federation_reason if {
	s := strategy.selected with input as _with("The federated billing remote shows no invoices", [], [])
	s.proofChains == ["federation"]
	{"reason": "mentionsFederation: \"federated\"", "evidenceRefs": ["prompt"]} in s.reasons
}

test_success_bundle_override_on_task_type_without_note if {
	domain := {"adp_sdf": {"strategyOverrides": [{"when": {"taskTypes": ["debug"]}, "strategy": "general_change"}]}}
	s := strategy.selected with input as _with("Fix the crash on the orders page", [], [])
		with data.mcpcdomain as domain # regal ignore:unresolved-reference
	s.strategyId == "general_change"
	s.contextSignature.taskTypeGuess == "debug"
	{"reason": "bundle override: general_change", "evidenceRefs": ["bundle:adp_sdf:strategyOverrides[0]"]} in s.reasons
}

test_success_bundle_override_with_an_empty_note if {
	domain := {"adp_sdf": {"strategyOverrides": [{"when": {"words": ["restyle"]}, "strategy": "ui_aggrid_feature", "note": ""}]}}
	s := strategy.selected with input as _with("Restyle the orders page", [], [])
		with data.mcpcdomain as domain # regal ignore:unresolved-reference
	{"reason": "bundle override: ui_aggrid_feature", "evidenceRefs": ["bundle:adp_sdf:strategyOverrides[0]"]} in s.reasons
}
