# METADATA
# title: MigrationRule without an analog
# description: |
#   A tag whose MigrationRule says no_analog (no SDF equivalent) is migrated
#   with an explicit fallback (seed 000 section 11.2): the change node states
#   it in fallback, or an escalate node cites the rule.
# custom:
#   code: PLAN_POLICY_VIOLATION
#   remediation: >-
#     State the fallback (a custom wrapper, or the rule's fallback policy) in the change node's fallback
#     field, or add an escalate node whose policyRefs cite the rule.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["migration-no-analog"]

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	some tag in enforcement.tags_with_status.no_analog
	some i in (enforcement.migrating_nodes[tag] - enforcement.fallback_indexes)
	node := plan.nodes[i]
	migration := enforcement.migration_of(i, tag)
	not enforcement.escalated(migration.rule.id)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v migrates %s, which has no SDF analog (MigrationRule %s), without a fallback",
			[node.nodeId, migration.tag, migration.rule.id],
		),
		"path": sprintf("%s.fallback", [plan.node_path(migration.index)]),
	})
}
