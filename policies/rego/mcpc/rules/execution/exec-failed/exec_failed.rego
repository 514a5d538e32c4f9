# METADATA
# title: Execution failed
# description: |
#   Executing an allowed decision failed before anything was written (the
#   target could not be read or written, a configured command vanished or did
#   not start: reasons io_error, not_executable, command_not_started). Go
#   reports the failure as input.execution.failures and evaluates the decision
#   again; this rule turns it into the turn's recorded denial. The state does
#   not move.
# custom:
#   code: EXEC_FAILED
#   remediation: >-
#     Nothing was changed. Retry the turn; if it fails again, check the file or command it names with
#     the operator (mcpc explain-deny shows the recorded decision).
#   severity: error
package mcpc.rules.execution["exec-failed"]

import data.mcpc.result

report contains violation if {
	some failure in input.execution.failures
	not failure.reason in _own_rules
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s failed: %s", [input.verb, failure.message]),
		"path": failure.path,
	})
}

# failure reasons another execution rule explains, with its own code
_own_rules := {"file_changed", "lock_timeout", "store_busy", "outcome_unrecorded", "side_effect_unrecorded"}
