# METADATA
# title: Store busy
# description: |
#   A turn waits for the store's write lock at most store.busyTimeoutMs. When
#   another process's turn held it for the whole wait, the turn never ran: Go
#   reports input.execution.failures {reason: store_busy, limitMs} and this rule
#   answers it. The denial is not recorded (recording needs the lock that was
#   not free); nothing was changed.
# custom:
#   code: STORE_BUSY
#   remediation: >-
#     Nothing was changed. Send the same turn again in a moment; another agent's turn held the store.
#   severity: error
package mcpc.rules.execution["store-busy"]

import data.mcpc.result

report contains violation if {
	some failure in input.execution.failures
	failure.reason == "store_busy"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s did not run: the store's write lock was not free within %d ms", [input.verb, failure.limitMs]),
		"path": failure.path,
	})
}
