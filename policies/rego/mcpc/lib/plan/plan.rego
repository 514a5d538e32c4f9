# METADATA
# title: Submitted PlanGraph
# description: |
#   Shared views of input.submission (args.planGraph as sent) for the plan rules:
#   its nodes with their index, node ids, nodes by kind, aggregates the rules
#   use as cheap guards, and the effective evidence policy. Evaluated only on
#   submit_execution_plan. Every view is a complete rule, so each is computed
#   once per decision; rules walk the nodes again only when a guard shows
#   something to report.
package mcpc.lib.plan

import data.mcpc.lib.tables

# METADATA
# scope: document
# description: the submitted nodes (empty unless nodes is an array)
nodes := input.submission.nodes if is_array(input.submission.nodes)

nodes := [] if not is_array(input.submission.nodes)

# METADATA
# description: the string nodeIds in node order (duplicates kept)
id_list := [node.nodeId | some node in nodes; is_string(node.nodeId)]

# METADATA
# description: every nodeId of the submission
ids := {id | some id in id_list}

# METADATA
# description: index to node for the change nodes
change_nodes := {i: node | some i, node in nodes; node.kind == "change"}

# METADATA
# description: index to node for the validate nodes
validate_nodes := {i: node | some i, node in nodes; node.kind == "validate"}

# METADATA
# description: the nodeIds of change nodes
change_ids := {node.nodeId | some node in change_nodes; is_string(node.nodeId)}

# METADATA
# description: every distinct dependsOn entry of the plan
dependencies := {dependency | some node in nodes; some dependency in node.dependsOn}

# METADATA
# description: every distinct citation of the plan
citations := {citation | some node in nodes; some citation in node.citations}

# METADATA
# description: every distinct code evidence entry of the change nodes
change_evidence := {evidence | some node in change_nodes; some evidence in node.codeEvidence}

# METADATA
# description: every distinct verification hook of the plan
hooks := {hook | some node in nodes; some hook in node.verificationHooks}

# METADATA
# description: the path of a node in the request
node_path(i) := sprintf("args.planGraph.nodes[%d]", [i])

# METADATA
# description: the evidence policy in force (config over the default of policies/data)
evidence_policy := object.union(tables.plangraph.defaultEvidencePolicy, input.config.evidencePolicy)

# METADATA
# description: a field is missing when absent or null
missing(doc, field) if object.get(doc, field, null) == null
