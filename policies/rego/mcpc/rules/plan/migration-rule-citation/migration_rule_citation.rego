# METADATA
# title: MigrationRule citation
# description: |
#   A change node that migrates a tag with a MigrationRule (its editIntent or
#   targetSymbols name the tag, or its targetFile uses the tag under the
#   migration strategy) cites that rule's id in policyRefs (seed 000 section
#   11.3), so every migration names the vetted mapping it follows.
# custom:
#   code: PLAN_POLICY_VIOLATION
#   remediation: >-
#     Add the MigrationRule id to the change node's policyRefs; the pack's policies.migrationRules
#     and planGraphSchema.enforcementObligations list the rules in scope.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["migration-rule-citation"]

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.result

report contains violation if {
	some tag, uncited in enforcement.uncited_nodes
	some i in uncited
	migration := enforcement.migration_of(i, tag)
	node := plan.nodes[migration.index]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"change node %v migrates %s but does not cite MigrationRule %s (status %s) in policyRefs",
			[node.nodeId, migration.tag, migration.rule.id, migration.rule.status],
		),
		"path": sprintf("%s.policyRefs", [plan.node_path(migration.index)]),
	})
}
