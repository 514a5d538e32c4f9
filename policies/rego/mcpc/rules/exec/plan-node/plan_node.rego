# METADATA
# title: Plan node
# description: |
#   args.planNodeId names a node of the accepted plan of the kind the verb acts
#   on: apply_code_patch a change node, execute_gated_side_effect a side_effect
#   node, run_automation_recipe the recipe's kind (run_targeted_validation a
#   validate node, replace_lexeme_in_file a change node), escalate (when it
#   names one) an escalate node, run_sandboxed_code any node.
# custom:
#   code: INVALID_ARGS
#   remediation: "Pass the nodeId of an accepted plan node of the right kind; progress and the accepted plan list them."
#   severity: error
package mcpc.rules.exec["plan-node"]

import data.mcpc.lib.tables
import data.mcpc.lib.turn
import data.mcpc.result

_kinds := tables.verb_policy[input.verb].planNodeKinds

_kinds := tables.recipes[input.args.recipeId].nodeKinds if input.verb == "run_automation_recipe"

_applies if {
	_kinds
	not tables.verb_policy[input.verb].planNodeOptional
}

_applies if {
	_kinds
	tables.verb_policy[input.verb].planNodeOptional
	object.get(input.args, "planNodeId", null) != null
}

report contains violation if {
	_applies
	not input.plan.accepted
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"planNodeId %v: no plan has been accepted for this work",
			[object.get(input.args, "planNodeId", null)],
		),
		"path": "args.planNodeId",
		"suggestedVerb": "submit_execution_plan",
	})
}

report contains violation if {
	_applies
	input.plan.accepted
	not turn.plan_node
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("planNodeId %v is not a node of the accepted plan", [object.get(input.args, "planNodeId", null)]),
		"path": "args.planNodeId",
		"suggestedVerb": input.verb,
	})
}

report contains violation if {
	_applies
	not turn.plan_node.kind in _kinds
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("planNodeId %q is a %s node; %s needs a %s node", [
			input.args.planNodeId, turn.plan_node.kind, input.verb,
			concat(" or ", _kinds),
		]),
		"path": "args.planNodeId",
		"suggestedVerb": input.verb,
	})
}
