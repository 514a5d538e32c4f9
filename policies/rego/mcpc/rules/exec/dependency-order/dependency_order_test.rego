package mcpc.rules.exec["dependency-order_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["dependency-order"] as rule

_remediation := concat(" ", [
	"Execute the nodes this one depends on first, in the plan's order; progress lists what remains.",
	"If the order is wrong, resubmit the plan before any node has started.",
])

_node(kind, status, depends) := {"kind": kind, "status": status, "dependsOn": depends, "mapsToNodeIds": []}

_input(verb, node_id, nodes) := fixtures.with_input({
	"verb": verb,
	"state": "PLAN_ACCEPTED",
	"args": {"planNodeId": node_id},
	"plan": {"accepted": true, "started": true, "nodes": nodes},
})

_chain(first_status) := {
	"change-1": _node("change", first_status, []),
	"change-2": _node("change", "pending", ["change-1"]),
	"validate-1": _node("validate", "pending", ["change-1", "change-2"]),
	"ask": _node("escalate", "pending", []),
	"commit": _node("side_effect", "pending", ["validate-1", "ask"]),
}

test_fail_patch_before_its_dependency if {
	r := rule.report with input as _input("apply_code_patch", "change-2", _chain("pending"))
	r == {{
		"code": "EXEC_PREREQUISITE_UNMET",
		"message": "change node \"change-2\" depends on change-1 (pending)",
		"path": "args.planNodeId",
		"remediation": _remediation,
		"rule": "mcpc.rules.exec[\"dependency-order\"]",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_success_patch_after_its_dependency if {
	count(rule.report) == 0 with input as _input("apply_code_patch", "change-2", _chain("patched"))
}

test_success_no_dependencies if {
	count(rule.report) == 0 with input as _input("apply_code_patch", "change-1", _chain("pending"))
}

test_fail_validation_lists_every_dependency_left if {
	r := rule.report with input as _input("run_automation_recipe", "validate-1", _chain("pending"))
	some v in r
	v.message == "validate node \"validate-1\" depends on change-1 (pending), change-2 (pending)"
}

test_fail_side_effect_before_an_escalation if {
	nodes := object.union(_chain("patched"), {"ask": _node("escalate", "pending", [])})
	r := rule.report with input as _input("execute_gated_side_effect", "commit", nodes)
	some v in r
	v.message == "side_effect node \"commit\" depends on ask (pending)"
	v.suggestedVerb == "escalate"
}

test_success_validation_leaves_its_mapped_changes_to_its_own_rule if {
	nodes := object.union(_chain("pending"), {"validate-1": {
		"kind": "validate", "status": "pending",
		"dependsOn": ["change-1", "change-2"], "mapsToNodeIds": ["change-1", "change-2"],
	}})
	validation := object.union(_input("run_automation_recipe", "validate-1", nodes), {"args": {
		"planNodeId": "validate-1",
		"recipeId": "run_targeted_validation",
	}})
	count(rule.report) == 0 with input as validation
}

# side-effect-validated already reports change and validate nodes left
test_success_side_effect_leaves_validations_to_its_own_rule if {
	nodes := object.union(_chain("patched"), {"ask": _node("escalate", "resolved", [])})
	count(rule.report) == 0 with input as _input("execute_gated_side_effect", "commit", nodes)
}

test_success_escalate_and_sandbox_never_wait if {
	nodes := object.union(_chain("pending"), {"ask": _node("escalate", "pending", ["change-2"])})
	count(rule.report) == 0 with input as _input("escalate", "ask", nodes)
	count(rule.report) == 0 with input as _input("run_sandboxed_code", "change-2", nodes)
}
