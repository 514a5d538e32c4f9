# METADATA
# title: File collision
# description: |
#   The first agent to patch a change node holds the node's files until the
#   node completes or fails (or the hold expires); another agent, of this work
#   or another, writing one of them collides. Go reports the file's holder from
#   the shared store, read under the turn's transaction.
# custom:
#   code: EXEC_SIDE_EFFECT_COLLISION
#   remediation: >-
#     Wait until the holder's node completes or fails (its validation runs), or
#     coordinate with the holding agent; then read the file again and retry.
#   severity: error
#   suggestedVerb: read_file_lines
package mcpc.rules.exec["file-collision"]

import data.mcpc.result

report contains violation if {
	input.reservation.held
	not input.reservation.expired
	holder := input.reservation.holder
	input.intents.target == holder.file
	_other(holder)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%s is held by agent %s of work %s for plan node %s until it completes or fails (at the latest %s)",
			[holder.file, holder.agentId, holder.workId, holder.nodeId, holder.expiresAt],
		),
		"path": "args.targetFile",
	})
}

_other(holder) if holder.agentId != input.agent.id

_other(holder) if holder.workId != input.work.id
