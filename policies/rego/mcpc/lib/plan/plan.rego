# METADATA
# title: Submitted PlanGraph
# description: |
#   Shared views of input.submission (args.planGraph as sent) for the plan rules:
#   its nodes with their index, node ids, the dependency graph and the
#   effective evidence policy. Evaluated only on submit_execution_plan.
package mcpc.lib.plan

import data.mcpc.lib.tables

# METADATA
# scope: document
# description: the submitted nodes (empty unless nodes is an array)
nodes := input.submission.nodes if is_array(input.submission.nodes)

nodes := [] if not is_array(input.submission.nodes)

_id_list := [node.nodeId | some node in nodes; is_string(node.nodeId)]

# METADATA
# description: every nodeId of the submission
ids contains id if some id in _id_list

# METADATA
# description: the nodeIds of change nodes
change_ids contains node.nodeId if {
	some node in nodes
	node.kind == "change"
	is_string(node.nodeId)
}

# METADATA
# description: the path of a node in the request
node_path(i) := sprintf("args.planGraph.nodes[%d]", [i])

_deps(node) := {dep | some dep in node.dependsOn; dep in ids} if is_array(node.dependsOn)

_deps(node) := set() if not is_array(node.dependsOn)

# METADATA
# scope: document
# description: nodeId to the nodeIds it depends on (resolving ones only)
dependency_graph := {node.nodeId: _deps(node) | some node in nodes; is_string(node.nodeId)} if {
	count(_id_list) == count(ids)
}

dependency_graph := {id: deps |
	some id in ids
	deps := {dep | some node in nodes; node.nodeId == id; some dep in _deps(node)}
} if {
	count(_id_list) != count(ids)
}

# METADATA
# description: the evidence policy in force (config over the default of policies/data)
evidence_policy := object.union(tables.plangraph.defaultEvidencePolicy, input.config.evidencePolicy)

# METADATA
# description: a field is missing when absent or null
missing(doc, field) if object.get(doc, field, null) == null
