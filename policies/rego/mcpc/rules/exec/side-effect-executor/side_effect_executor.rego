# METADATA
# title: Side effect executor
# description: |
#   execute_gated_side_effect runs a side_effect node only as the type the
#   accepted plan declares, and only a type this build can carry out
#   (input.config.sideEffectExecutors: Go reports what it can execute, policy
#   decides what runs): args.sideEffectType, when given, must be the node's.
# custom:
#   code: EXEC_SIDE_EFFECT_UNSUPPORTED
#   remediation: >-
#     Execute side_effect nodes of a type mcpc can carry out (config.sideEffectExecutors of the decision
#     record; git_commit), naming the type the accepted plan declares, or leave the side effect to a person.
#   severity: error
#   suggestedVerb: signal_task_complete
package mcpc.rules.exec["side-effect-executor"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	input.verb == "execute_gated_side_effect"
	turn.plan_node.kind == "side_effect"
	declared := object.get(turn.plan_node, "sideEffectType", "")
	not declared in input.config.sideEffectExecutors
	executors := concat(", ", input.config.sideEffectExecutors)
	message := "side_effect node %q is of type %q, which this build cannot execute (it executes %s)"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(message, [input.args.planNodeId, declared, executors]),
		"path": "args.planNodeId",
	})
}

report contains violation if {
	input.verb == "execute_gated_side_effect"
	turn.plan_node.kind == "side_effect"
	asked := input.args.sideEffectType
	declared := object.get(turn.plan_node, "sideEffectType", "")
	asked != declared
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("side_effect node %q is of type %q, not %q", [input.args.planNodeId, declared, asked]),
		"path": "args.sideEffectType",
	})
}
