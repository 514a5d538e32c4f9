# METADATA
# title: Lock timeout
# description: |
#   No turn holds the store's write lock past store.lockTimeoutMs. A turn still
#   under the lock at that bound is rolled back by the store at that moment
#   (whatever it was doing: reading a huge file, a slow disk), what it wrote
#   outside the store is undone, and Go reports input.execution.failures
#   {reason: lock_timeout, stage, limitMs}: the part of the turn that was running
#   (load, request, verb, execute, record) and the bound. This rule turns it
#   into the turn's recorded denial. Nothing the turn did is kept.
# custom:
#   code: LOCK_TIMEOUT
#   remediation: >-
#     Nothing was changed. Retry the turn; if it reaches the bound again, make it smaller (fewer edits,
#     a smaller file, a narrower range) or ask the operator about the store (store.lockTimeoutMs).
#   severity: error
package mcpc.rules.execution["lock-timeout"]

import data.mcpc.result

report contains violation if {
	some failure in input.execution.failures
	failure.reason == "lock_timeout"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%s held the store's write lock for %d ms, its bound, in its %s stage and was rolled back",
			[input.verb, failure.limitMs, failure.stage],
		),
		"path": failure.path,
	})
}
