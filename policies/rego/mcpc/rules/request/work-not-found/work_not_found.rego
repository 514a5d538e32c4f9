# METADATA
# title: Work not found
# description: The request names a workId the store does not know; nothing is created for it.
# custom:
#   code: WORK_NOT_FOUND
#   remediation: "Pass the workId returned by initialize_work, or call initialize_work to start a new work."
#   severity: error
#   suggestedVerb: initialize_work
package mcpc.rules.request["work-not-found"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	turn.work_missing
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("work %s does not exist", [result.quoted(input.work.id)]),
		"path": "workId",
	})
}
