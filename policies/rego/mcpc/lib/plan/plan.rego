# METADATA
# title: Submitted PlanGraph
# description: |
#   Shared views of input.submission (args.planGraph as sent) for the plan rules:
#   its nodes with their index, node ids, nodes by kind, aggregates the rules
#   use as cheap guards, and the effective evidence policy. Evaluated only on
#   submit_execution_plan. Every view is a complete rule, so each is computed
#   once per decision; rules walk the nodes again only when a guard shows
#   something to report.
#   The views are comprehensions in complete rules rather than multi-value
#   rules: on a 200-node plan that evaluates measurably faster (fewer
#   allocations), hence the prefer-set-or-object-rule ignore directives.
package mcpc.lib.plan

import data.mcpc.lib.tables

# METADATA
# scope: document
# description: the submitted nodes (empty unless nodes is an array)
nodes := input.submission.nodes if is_array(input.submission.nodes)

nodes := [] if not is_array(input.submission.nodes)

_all_id_list := input.submissionFacts.aggregates.ids if {
	is_array(input.submissionFacts.aggregates.ids)
} else := [node.nodeId | some node in nodes]

# concat checks that every element is a string in one builtin call
_ids_are_strings if is_string(concat("", _all_id_list))

# METADATA
# scope: document
# description: the string nodeIds in node order (duplicates kept)
id_list := _all_id_list if _ids_are_strings

id_list := [id | some id in _all_id_list; is_string(id)] if not _ids_are_strings

# METADATA
# description: every nodeId of the submission
ids := {id | some id in id_list}

# Go reports the nodes' shapes (input.submissionFacts.nodeShapes, allKinded)
# so the field rules need not build a key set per node; an input without
# them (one recorded before Go reported them) has them worked out here.
_shape_facts if is_array(input.submissionFacts.nodeShapes)

# [kind, field names] of every node that is an object with a kind, in node order
_shape_list := [[node.kind, object.keys(node)] | some node in nodes]

# METADATA
# scope: document
# description: every node is an object with a kind (then shapes describes every node)
all_kinded if {
	_shape_facts
	input.submissionFacts.allKinded == true
}

all_kinded if {
	not _shape_facts
	count(_shape_list) == count(nodes)
}

# METADATA
# scope: document
# description: the distinct [kind, field names] of the nodes (usually one per kind)
shapes := {[s.kind, {f | some f in s.fields}] | some s in input.submissionFacts.nodeShapes} if _shape_facts

shapes := {shape | some shape in _shape_list} if not _shape_facts

# Go reports the distinct values the views below collect
# (input.submissionFacts.aggregates) and the nodes of each kind, gathered in
# one walk of the nodes, so no view walks them again; an input without them
# (one recorded before Go reported them) has them collected here.
_agg_facts if is_object(input.submissionFacts.aggregates)

# METADATA
# description: Go's aggregates of the submitted nodes (undefined for an input without them)
aggregates := input.submissionFacts.aggregates

# METADATA
# scope: document
# description: index to node for the change nodes
change_nodes := {i: nodes[i] | some i in aggregates.kindIndexes.change} if _agg_facts

# regal ignore:prefer-set-or-object-rule
change_nodes := {i: node | some i, node in nodes; node.kind == "change"} if not _agg_facts

# METADATA
# scope: document
# description: index to node for the validate nodes
validate_nodes := {i: nodes[i] | some i in aggregates.kindIndexes.validate} if _agg_facts

# regal ignore:prefer-set-or-object-rule
validate_nodes := {i: node | some i, node in nodes; node.kind == "validate"} if not _agg_facts

# METADATA
# scope: document
# description: the indexes of the nodes of a kind
kind_indexes(kind) := {i | some i in aggregates.kindIndexes[kind]} if _agg_facts

kind_indexes(kind) := {i | some i, node in nodes; node.kind == kind} if not _agg_facts

# METADATA
# description: how many change nodes the plan has
change_count := count(object.get(aggregates.kindIndexes, "change", [])) if _agg_facts

else := count(change_nodes)

# METADATA
# scope: document
# description: the nodeIds of change nodes
change_ids := {id | some id in aggregates.changeIds} if _agg_facts

change_ids := {node.nodeId | some node in change_nodes} if {
	not _agg_facts
	_ids_are_strings
}

change_ids := {node.nodeId | some node in change_nodes; is_string(node.nodeId)} if {
	not _agg_facts
	not _ids_are_strings
}

# METADATA
# scope: document
# description: every distinct mapsToNodeIds entry of the validate nodes
mapped := {id | some id in aggregates.mapped} if _agg_facts

# regal ignore:prefer-set-or-object-rule
mapped := {id | some node in validate_nodes; some id in node.mapsToNodeIds} if not _agg_facts

# METADATA
# scope: document
# description: every distinct operation of the change nodes
change_operations := {op | some op in aggregates.changeOperations} if _agg_facts

# regal ignore:prefer-set-or-object-rule
change_operations := {node.operation | some node in change_nodes} if not _agg_facts

# METADATA
# scope: document
# description: every distinct dependsOn entry of the plan
dependencies := {dep | some dep in aggregates.dependencies} if _agg_facts

# regal ignore:prefer-set-or-object-rule
dependencies := {dep | some node in nodes; some dep in node.dependsOn} if not _agg_facts

# METADATA
# scope: document
# description: every distinct citation of the plan
citations := {citation | some citation in aggregates.citations} if _agg_facts

# regal ignore:prefer-set-or-object-rule
citations := {citation | some node in nodes; some citation in node.citations} if not _agg_facts

# METADATA
# scope: document
# description: every distinct targetFile of the change nodes (non-strings included)
change_targets := {file | some file in aggregates.changeTargets} if _agg_facts

# regal ignore:prefer-set-or-object-rule
change_targets := {node.targetFile | some node in change_nodes} if not _agg_facts

# METADATA
# scope: document
# description: every distinct code evidence entry of the change nodes
change_evidence := {e | some e in aggregates.changeEvidence} if _agg_facts

# regal ignore:prefer-set-or-object-rule
change_evidence := {e | some node in change_nodes; some e in node.codeEvidence} if not _agg_facts

# METADATA
# scope: document
# description: every distinct verification hook of the plan
hooks := {hook | some hook in aggregates.hooks} if _agg_facts

# regal ignore:prefer-set-or-object-rule
hooks := {hook | some node in nodes; some hook in node.verificationHooks} if not _agg_facts

# METADATA
# scope: document
# description: every distinct componentMapping of the change nodes
component_mappings := {m | some m in aggregates.componentMappings} if _agg_facts

# regal ignore:prefer-set-or-object-rule
component_mappings := {node.componentMapping | some node in change_nodes} if not _agg_facts

# METADATA
# description: the path of a node in the request
node_path(i) := sprintf("args.planGraph.nodes[%d]", [i])

# METADATA
# description: the evidence policy in force (config over the default of policies/data)
evidence_policy := object.union(tables.plangraph.defaultEvidencePolicy, input.config.evidencePolicy)

# METADATA
# description: a field is missing when absent or null
missing(doc, field) if object.get(doc, field, null) == null

# METADATA
# description: |
#   what the response tells the agent its plan must hold (planGraphSchema, less
#   the envelope Go fills in), built from the same tables and configuration the
#   plan rules enforce: the evidence policy is evidence_policy itself, the
#   required fields are node-fields' tables, the node kinds unknown-node-kind's
#   and the validators the plan rules' ids (test_success_validators_are_the_plan_rules)
guidance := {
	"envelopeRequiredFields": tables.plangraph.envelopeRequiredFields,
	"expectedNodeKinds": sort(object.keys(tables.plangraph.kindFields)),
	"requiredFields": {kind: array.concat(tables.plangraph.commonNodeFields, fields) |
		some kind, fields in tables.plangraph.kindFields
	},
	"evidencePolicy": evidence_policy,
	"citationSources": tables.plangraph.citationSources,
	"validators": tables.plangraph.validators,
	"enforcementObligations": tables.plangraph.enforcementObligations,
	"validationCommands": input.config.validationCommands,
}
