# METADATA
# title: MigrationRule status
# description: |
#   A migration under a MigrationRule that is not approved carries what its
#   status demands (seed 000 section 11.2): a candidate mapping takes the
#   low-evidence path (lowEvidenceGuard, uncertaintyNote, requiresHumanReview);
#   an unknown mapping has an escalate node citing the rule, or the
#   low-evidence path. Only the node of that tag is held: the rest of the
#   migration goes ahead (section 11.3, unknown mappings never halt the work).
# custom:
#   code: PLAN_EVIDENCE_INSUFFICIENT
#   remediation: >-
#     For a candidate rule set lowEvidenceGuard true, an uncertaintyNote and requiresHumanReview true on
#     the node; for an unknown rule add an escalate node whose policyRefs cite the rule (or take the
#     low-evidence path).
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["migration-rule-status"]

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	some migration in _unguarded("candidate")
	node := plan.nodes[migration.index]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v migrates %s under candidate MigrationRule %s without the low-evidence guard",
			[node.nodeId, migration.tag, migration.rule.id],
		),
		"path": plan.node_path(migration.index),
	})
}

report contains violation if {
	some migration in _unguarded("unknown")
	not enforcement.escalated(migration.rule.id)
	node := plan.nodes[migration.index]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s%s", [
			sprintf(
				"change node %v migrates %s, whose MigrationRule %s is unknown, ",
				[node.nodeId, migration.tag, migration.rule.id],
			),
			"with no escalate node citing it and no low-evidence guard",
		]),
		"path": plan.node_path(migration.index),
		"suggestedVerb": "escalate",
	})
}

# the migrations under a rule of the status by change nodes off the
# low-evidence path, walked per tag of that status
_unguarded(status) := [enforcement.migration_of(i, tag) |
	some tag in enforcement.tags_with_status[status]
	some i in (enforcement.migrating_nodes[tag] - enforcement.guarded_indexes)
]
