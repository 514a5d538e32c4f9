# METADATA
# title: Component contract
# description: |
#   A change node that maps an adp-* tag to an sdf-* component
#   (componentMapping {fromTag, toTag, props}) uses only props the target's
#   components.d.ts contract declares, or custom events it emits (seed 000
#   section 9.4): the planner may not invent props, nor target a component no
#   contract declares.
# custom:
#   code: PLAN_POLICY_VIOLATION
#   remediation: >-
#     Use only the props the pack's policies.contracts list for the target component, or escalate for
#     the contract if it is missing.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["component-contract"]

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.result

_mapped := [[i, mapping] | # regal ignore:prefer-set-or-object-rule
	some i, node in plan.change_nodes
	mapping := node.componentMapping
	startswith(mapping.toTag, "sdf-")
]

# the distinct mappings, and the guards over them that say whether a rule
# below has anything to find before it walks every change node
_mappings := {mapping | # regal ignore:prefer-set-or-object-rule
	some mapping in plan.component_mappings
	startswith(mapping.toTag, "sdf-")
}

# the props each declared contract allows, by tag (kept between turns while
# the contracts stay the same; the plan's tags are looked up in it)
_declared := enforcement.contract_props

_undeclared := {mapping.toTag | some mapping in _mappings} - object.keys(enforcement.contracts)

_overreaching if {
	some mapping in _mappings
	declared := _declared[mapping.toTag]
	some prop in mapping.props
	not prop in declared
}

report contains violation if {
	count(_undeclared) > 0
	some [i, mapping] in _mapped
	not enforcement.contracts[mapping.toTag]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v maps to %s, which no components.d.ts contract declares",
			[plan.nodes[i].nodeId, mapping.toTag],
		),
		"path": sprintf("%s.componentMapping.toTag", [plan.node_path(i)]),
	})
}

report contains violation if {
	_overreaching
	some [i, mapping] in _mapped
	declared := _declared[mapping.toTag]
	some k, prop in mapping.props
	not prop in declared
	not prop in object.get(enforcement.contracts[mapping.toTag], "events", [])
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v uses prop %v on %s, which its contract does not declare (declared: %s)",
			[plan.nodes[i].nodeId, prop, mapping.toTag, concat(", ", sort(declared))],
		),
		"path": sprintf("%s.componentMapping.props[%d]", [plan.node_path(i), k]),
	})
}
