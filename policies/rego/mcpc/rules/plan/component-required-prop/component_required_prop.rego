# METADATA
# title: Required component props in a plan
# description: |
#   A change node that maps a tag to a contracted component
#   (componentMapping {fromTag, toTag, props}) sets every prop the target's
#   components.d.ts contract requires (declared without "?"): an element the
#   mapping makes without one is broken from the start. The write-time check
#   (exec component-required-prop) judges the elements the patch writes.
# custom:
#   code: PLAN_POLICY_VIOLATION
#   remediation: >-
#     List every required prop of the target component (the pack's policies.contracts mark them required)
#     in componentMapping.props, mapping an attribute of the old tag to it.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["component-required-prop"]

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.result

# a distinct mapping of the plan lacks a required prop: only then are the
# change nodes walked for the ones that do
_lacking if {
	some mapping in plan.component_mappings
	some prop in _required[mapping.toTag]
	not prop.name in object.get(mapping, "props", [])
}

# the required props of each declared contract, by tag: built once while
# the contracts stay the same (the engine keeps it between turns)
_required := {tag: required | # regal ignore:prefer-set-or-object-rule
	some tag, contract in enforcement.contracts
	required := [prop | some prop in contract.props; prop.required == true]
}

report contains violation if {
	_lacking
	some i, node in plan.change_nodes
	mapping := node.componentMapping
	some prop in enforcement.contracts[mapping.toTag].props
	prop.required == true
	not prop.name in object.get(mapping, "props", [])
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v maps to %s without its required prop %s",
			[plan.nodes[i].nodeId, mapping.toTag, prop.name],
		),
		"path": sprintf("%s.componentMapping.props", [plan.node_path(i)]),
	})
}
