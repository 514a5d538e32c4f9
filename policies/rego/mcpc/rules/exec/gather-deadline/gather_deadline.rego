# METADATA
# title: Gathering deadline
# description: |
#   A fact the verb stage needs could not be gathered within its deadline
#   (config store.lockTimeoutMs): input.deadlines names it. A patch whose dry
#   run did not finish is never written: nothing says it would apply.
# custom:
#   code: EXEC_DEADLINE_EXCEEDED
#   remediation: >-
#     Split the change into smaller edits (replace_text with a find that occurs once) or patch a smaller
#     file; an operator can raise store.lockTimeoutMs.
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.exec["gather-deadline"]

import data.mcpc.result

_paths := {"patch": "args.edits"}

report contains violation if {
	some missed in input.deadlines
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the %s facts were not gathered within %d ms", [missed.fact, missed.limitMs]),
		"path": object.get(_paths, missed.fact, ""),
	})
}
