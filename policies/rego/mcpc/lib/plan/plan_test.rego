package mcpc.lib.plan_test

import data.mcpc.fixtures_test as fixtures
import data.mcpc.lib.plan
import data.mcpc.lib.tables
import data.mcpc.rules.plan["node-fields"] as node_fields
import data.mcpc.rules.plan["unknown-node-kind"] as unknown_node_kind

# a partial evidence policy in config is merged over the default, and the
# response states the merged policy evidence-minima enforces, not the partial one
test_success_guidance_states_the_enforced_evidence_policy if {
	doc := fixtures.with_input({"config": object.union(fixtures.input_doc.config, {"evidencePolicy": {"minDistinctSources": 3}})})
	guidance := plan.guidance with input as doc
	guidance.evidencePolicy == {
		"minRequirementSources": 1, "minCodeEvidenceSources": 1,
		"minDistinctSources": 3, "allowSingleSourceWithGuard": true,
	}
	guidance.evidencePolicy == plan.evidence_policy with input as doc
}

# the validators the response lists are exactly the plan rules that judge a plan
test_success_validators_are_the_plan_rules if {
	rules := {name |
		some name, _ in data.mcpc.rules.plan with input as fixtures.input_doc
		not endswith(name, "_test")
	}
	validators := {name | some name in plan.guidance.validators} with input as fixtures.input_doc
	rules == validators
}

_submission(nodes) := fixtures.with_input({"verb": "submit_execution_plan", "submission": {"nodes": nodes}})

# a node of each expected kind holding exactly its requiredFields passes
# node-fields and unknown-node-kind; without any one of them node-fields denies
# that field
test_success_required_fields_are_what_node_fields_enforces if {
	guidance := plan.guidance with input as fixtures.input_doc
	count(guidance.expectedNodeKinds) == 4
	every kind in guidance.expectedNodeKinds {
		node := {field: _value(field, kind) | some field in guidance.requiredFields[kind]}
		count(node_fields.report) == 0 with input as _submission([node])
		count(unknown_node_kind.report) == 0 with input as _submission([node])
		others := {field | some field in guidance.requiredFields[kind]; field != "kind"}
		count(others) > 1
		every field in others {
			paths := {d.path | some d in node_fields.report} with input as _submission([object.remove(node, [field])])
			paths == {sprintf("args.planGraph.nodes[0].%s", [field])}
		}
	}
}

_value("kind", kind) := kind

_value(field, _) := "x" if field != "kind"

test_success_guidance_lists_the_configured_commands if {
	guidance := plan.guidance with input as fixtures.input_doc
	guidance.validationCommands == fixtures.input_doc.config.validationCommands
	guidance.envelopeRequiredFields == tables.plangraph.envelopeRequiredFields
}

# Go's shape facts and the shapes worked out here (an input recorded before
# Go reported them) are the same views, so the field rules decide alike
test_success_shapes_from_go_facts_match_the_worked_out_ones if {
	nodes := [
		{"kind": "change", "nodeId": "c-1"},
		{"kind": "change", "nodeId": "c-2"},
		{"kind": "validate"},
	]
	facts := {"cycleNodes": [], "allKinded": true, "nodeShapes": [
		{"kind": "change", "fields": ["kind", "nodeId"]},
		{"kind": "validate", "fields": ["kind"]},
	]}
	doc := object.union(_submission(nodes), {"submissionFacts": facts})
	want := {["change", {"kind", "nodeId"}], ["validate", {"kind"}]}
	plan.shapes == want with input as doc
	plan.all_kinded with input as doc
	plan.shapes == want with input as _submission(nodes)
	plan.all_kinded with input as _submission(nodes)
}

test_success_not_all_kinded_from_go_facts if {
	nodes := [{"kind": "change"}, "x"]
	facts := {"cycleNodes": [], "allKinded": false, "nodeShapes": [{"kind": "change", "fields": ["kind"]}]}
	doc := object.union(_submission(nodes), {"submissionFacts": facts})
	not plan.all_kinded with input as doc
	not plan.all_kinded with input as _submission(nodes)
	plan.shapes == {["change", {"kind"}]} with input as doc
}

# with Go's facts the field rules deny what they deny without them
test_fail_field_rules_alike_with_go_facts if {
	nodes := [{"kind": "change", "nodeId": "c-1"}, {"kind": "bogus", "nodeId": "b-1"}, 7]
	facts := {"cycleNodes": [], "allKinded": false, "nodeShapes": [
		{"kind": "bogus", "fields": ["kind", "nodeId"]},
		{"kind": "change", "fields": ["kind", "nodeId"]},
	]}
	doc := object.union(_submission(nodes), {"submissionFacts": facts})
	with_fields := node_fields.report with input as doc
	count(with_fields) > 0
	with_fields == node_fields.report with input as _submission(nodes)
	with_kinds := unknown_node_kind.report with input as doc
	count(with_kinds) == 2
	with_kinds == unknown_node_kind.report with input as _submission(nodes)
}
