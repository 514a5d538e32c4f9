# METADATA
# title: Grounded prose policy citation
# description: |
#   A prose policy (skills.md, markdown guidance) binds a plan only when it is
#   grounded (seed 000 section 10.2): a usage example of a component it names
#   exists in its domain anchor. A change node inside such a policy's scope
#   that touches a component it names cites it in policyRefs. Ungrounded
#   policies are advisory in the pack and never deny.
# custom:
#   code: PLAN_POLICY_VIOLATION
#   remediation: >-
#     Read the policy (the pack's policies.prose, enforceable entries) and cite its id in the change
#     node's policyRefs.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["prose-policy-citation"]

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.result

_in_scope(file, scopes) if {
	is_string(file)
	"" in scopes
}

_in_scope(file, scopes) if {
	some scope in scopes
	scope != ""
	startswith(file, concat("", [scope, "/"]))
}

_enforceable := [entry | some entry in enforcement.prose; entry.enforceable]

# change node index to the tags it touches, built once (only when a policy can deny)
_enforceable_ids := {entry.id | some entry in _enforceable} # regal ignore:prefer-set-or-object-rule

# the change nodes that do not cite every enforceable policy: only they can
# fail to cite one they touch, so only their tags are gathered
default _suspects := set()

_suspects := plan.kind_indexes("change") - intersection({enforcement.citing(id) | some id in _enforceable_ids}) if {
	count(_enforceable_ids) > 0
	not _all_cite
}

# Go's lists of the nodes citing a ref and of the change nodes are both in
# node order: the same list says every change node cites it, and then no
# node is a suspect without building either set
_all_cite if {
	every id in _enforceable_ids {
		plan.aggregates.refNodes[id] == plan.aggregates.kindIndexes.change
	}
}

_tags := {i: tags | # regal ignore:prefer-set-or-object-rule
	some i in _suspects
	node := plan.change_nodes[i]
	tags := enforcement.node_tags[i] | {node.componentMapping.toTag | is_string(node.componentMapping.toTag)}
}

report contains violation if {
	some entry in _enforceable
	some i, tags in _tags
	some tag in entry.mentions
	tag in tags
	node := plan.nodes[i]
	_in_scope(node.targetFile, entry.scopes)
	not i in enforcement.citing(entry.id)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s%s", [
			sprintf(
				"change node %v touches %s, which grounded policy %s (%s:%d) governs, ",
				[node.nodeId, tag, entry.id, entry.file, entry.line],
			),
			"without citing it in policyRefs",
		]),
		"path": sprintf("%s.policyRefs", [plan.node_path(i)]),
	})
}
