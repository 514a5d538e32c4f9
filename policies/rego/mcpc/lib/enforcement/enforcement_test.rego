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

# Go's tag facts and the tags found here (an input recorded before Go
# reported them) are the same views
test_success_node_tags_from_go_facts_match_the_found_ones if {
	nodes := [
		{"kind": "change", "editIntent": "Replace ADP-Alert with sdf-alert", "targetSymbols": ["adp-alert", "App"]},
		{"kind": "validate", "editIntent": "adp-x"},
		{"kind": "change", "editIntent": "rename", "targetSymbols": []},
	]
	without := fixtures.with_input({"verb": "submit_execution_plan", "submission": {"nodes": nodes}})
	doc := object.union(without, {"submissionFacts": {
		"cycleNodes": [],
		"nodeTags": [["adp-alert", "sdf-alert"], null, []],
		"namedTags": ["adp-alert", "sdf-alert"],
	}})
	want := {0: {"adp-alert", "sdf-alert"}, 2: set()}
	enforcement.node_tags == want with input as doc
	enforcement.node_tags == want with input as without
	enforcement.plan_named_tags == {"adp-alert", "sdf-alert"} with input as doc
	enforcement.plan_named_tags == {"adp-alert", "sdf-alert"} with input as without
}

# Go's indexes of the change nodes (aggregates: by named tag, target file and
# cited ref) and the node-by-node views of an input recorded before them
# decide alike: the same migrations, and the same denials from every rule
# that reads them
test_success_indexed_migrations_match_the_node_by_node_ones if {
	nodes := [
		fixtures.change_node("c-1", {
			"editIntent": "swap adp-alert", "targetSymbols": ["adp-alert"], "policyRefs": ["mig-adp-alert"],
			"lowEvidenceGuard": true, "requiresHumanReview": true, "uncertaintyNote": "unvetted", "fallback": "wrap",
		}),
		fixtures.change_node("c-2", {"editIntent": "swap adp-button", "targetFile": "src/b.html", "policyRefs": []}),
		object.remove(fixtures.change_node("c-3", {"editIntent": "adp-card"}), ["targetFile"]),
		fixtures.change_node("c-4", {
			"targetFile": "src/p.html", "policyRefs": ["mig-adp-page-header", 3],
			"lowEvidenceGuard": true, "uncertaintyNote": " ", "fallback": " ",
		}),
		{"kind": "escalate", "nodeId": "e-1", "dependsOn": [], "policyRefs": ["mig-adp-card"]},
	]
	without := fixtures.plan_input(nodes, {"fileTags": {"src/b.html": ["adp-card"], "src/p.html": ["adp-page-header"]}})
	doc := object.union(without, {"submissionFacts": {
		"cycleNodes": [],
		"nodeTags": [["adp-alert"], ["adp-button"], ["adp-card"], [], null],
		"namedTags": ["adp-alert", "adp-button", "adp-card"],
		"aggregates": {
			"kindIndexes": {"change": [0, 1, 2, 3], "escalate": [4]},
			"changeTargets": ["src/a.html", "src/b.html", "src/p.html"],
			"dependencies": [], "hooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
			"citations": [{"source": "prompt", "ref": "originalPrompt"}],
			"changeEvidence": [{"file": "src/a.html", "startLine": 1}], "componentMappings": [],
			"tagNodes": {"adp-alert": [0], "adp-button": [1], "adp-card": [2]},
			"targetNodes": {"src/a.html": [0], "src/b.html": [1], "src/p.html": [3]},
			"refNodes": {"mig-adp-alert": [0], "mig-adp-page-header": [3]},
			"untargeted": [2],
			"trueNodes": {"lowEvidenceGuard": [0, 3], "requiresHumanReview": [0]},
			"textNodes": {"uncertaintyNote": [0], "fallback": [0]},
		},
	}})
	want := {"adp-alert": {0}, "adp-button": {1}, "adp-card": {0, 1}, "adp-page-header": {3}}
	enforcement.migrating_nodes == want with input as doc
	enforcement.migrating_nodes == want with input as without
	enforcement.uncited_nodes == {"adp-button": {1}, "adp-card": {0, 1}} with input as doc
	enforcement.uncited_nodes == {"adp-button": {1}, "adp-card": {0, 1}} with input as without
	enforcement.guarded_indexes == {0} with input as doc
	enforcement.guarded_indexes == {0} with input as without
	enforcement.fallback_indexes == {0} with input as doc
	enforcement.fallback_indexes == {0} with input as without
	enforcement.citing("mig-adp-card") == set() with input as doc
	enforcement.citing("mig-adp-page-header") == {3} with input as without
	indexed_0 := data.mcpc.rules.plan["migration-rule-citation"].report with input as doc
	indexed_0 == data.mcpc.rules.plan["migration-rule-citation"].report with input as without
	indexed_1 := data.mcpc.rules.plan["migration-rule-status"].report with input as doc
	indexed_1 == data.mcpc.rules.plan["migration-rule-status"].report with input as without
	indexed_2 := data.mcpc.rules.plan["migration-no-analog"].report with input as doc
	indexed_2 == data.mcpc.rules.plan["migration-no-analog"].report with input as without
	indexed_3 := data.mcpc.rules.plan["prose-policy-citation"].report with input as doc
	indexed_3 == data.mcpc.rules.plan["prose-policy-citation"].report with input as without
	count(data.mcpc.rules.plan["migration-rule-citation"].report) == 3 with input as doc
}

# the tag pattern is policy data: a bundle that overrides it is matched with
test_success_tag_pattern_is_policy_data if {
	nodes := [{"kind": "change", "editIntent": "x-ab and adp-alert", "targetSymbols": []}]
	doc := fixtures.with_input({"verb": "submit_execution_plan", "submission": {"nodes": nodes}})
	enforcement.node_tags == {0: {"x-ab"}} with input as doc with data.data.mcpc.customElementTag as {"pattern": "x-[a-z]+"} # regal ignore:unresolved-reference
	enforcement.node_tags == {0: {"x-ab", "adp-alert"}} with input as doc
}

# a submission of nodes (change nodes 0 and 1, a validate node 2) with Go's
# aggregates, tagTargets among them when join is an object
_joined(nodes, file_tags, join) := object.union(fixtures.plan_input(nodes, {"fileTags": file_tags}), {"submissionFacts": {
	"cycleNodes": [],
	"nodeTags": [[], [], null],
	"namedTags": [],
	"aggregates": object.union(
		{
			"kindIndexes": {"change": [0, 1], "validate": [2]},
			"changeTargets": ["src/a.html", "src/b.html"],
			"dependencies": ["c-1"], "hooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
			"citations": [{"source": "prompt", "ref": "originalPrompt"}],
			"changeEvidence": [{"file": "src/a.html", "startLine": 1}], "componentMappings": [],
			"tagNodes": {}, "targetNodes": {"src/a.html": [0], "src/b.html": [1]},
			"refNodes": {"mig-adp-alert": [0], "mig-adp-card": [0]}, "untargeted": [],
			"trueNodes": {"lowEvidenceGuard": [], "requiresHumanReview": []},
			"textNodes": {"uncertaintyNote": [], "fallback": []},
		},
		{"tagTargets": join},
	),
}})

_joined_nodes := [
	fixtures.change_node("c-1", {"policyRefs": ["mig-adp-alert", "mig-adp-card"]}),
	fixtures.change_node("c-2", {"targetFile": "src/b.html"}),
	{
		"nodeId": "v-1", "kind": "validate", "dependsOn": ["c-1"], "mapsToNodeIds": ["c-1"],
		"verificationHooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
	},
]

# Go's join of the change nodes' targets with the tags they use
# (aggregates.tagTargets) and policy's own join of an input recorded before
# it decide alike
test_success_tag_targets_fact_matches_the_policy_join if {
	file_tags := {"src/a.html": ["adp-alert", "adp-card"], "src/b.html": ["sdf-alert"]}
	doc := _joined(_joined_nodes, file_tags, {"adp-alert": ["src/a.html"], "adp-card": ["src/a.html"], "sdf-alert": ["src/b.html"]})
	recorded := _joined(_joined_nodes, file_tags, null)
	want := {"adp-alert": {"src/a.html"}, "adp-card": {"src/a.html"}, "sdf-alert": {"src/b.html"}}
	_as_sets(enforcement.tag_targets) == want with input as doc
	_as_sets(enforcement.tag_targets) == want with input as recorded
	_as_sets(enforcement.tag_targets) == want with input as fixtures.plan_input(_joined_nodes, {"fileTags": file_tags})
	enforcement.migrating_nodes == {"adp-alert": {0}, "adp-card": {0}} with input as doc
	enforcement.migrating_nodes == {"adp-alert": {0}, "adp-card": {0}} with input as recorded
	count(data.mcpc.rules.plan["migration-rule-citation"].report) == 0 with input as doc
}

_as_sets(join) := {tag: {file | some file in files} | some tag, files in join}

# the migration views read Go's join, not fileTags again: a node whose file
# the join says uses a tag with a MigrationRule migrates it, and is denied
# for not citing the rule
test_fail_tag_targets_fact_makes_the_node_migrate if {
	doc := _joined(_joined_nodes, {}, {"adp-card": ["src/b.html"]})
	enforcement.migrating_nodes == {"adp-card": {1}} with input as doc
	r := data.mcpc.rules.plan["migration-rule-citation"].report with input as doc
	r == {{
		"code": "PLAN_POLICY_VIOLATION",
		"message": "change node c-2 migrates adp-card but does not cite MigrationRule mig-adp-card (status unknown) in policyRefs",
		"path": "args.planGraph.nodes[1].policyRefs",
		"remediation": concat("", [
			"Add the MigrationRule id to the change node's policyRefs; the pack's policies.migrationRules ",
			"and planGraphSchema.enforcementObligations list the rules in scope.",
		]),
		"rule": "mcpc.rules.plan[\"migration-rule-citation\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}
