# METADATA
# title: Side effect not recorded
# description: |
#   A gated side effect ran after its turn's transaction (git_commit made its
#   commit), and the store could not mark its node executed. The commit exists:
#   Go reports input.execution.failures {reason: side_effect_unrecorded, commit}
#   and the answer carries the commit as a fact. This rule makes the turn a
#   recorded denial that names the commit, so nobody runs the side effect a
#   second time believing the first did nothing.
# custom:
#   code: SIDE_EFFECT_UNRECORDED
#   remediation: >-
#     Do not execute the side effect again: the commit named in the message exists. Ask the operator to
#     check the store and the commit (mcpc explain-deny shows it); keep it or revert it with git.
#   severity: error
package mcpc.rules.execution["side-effect-unrecorded"]

import data.mcpc.result

report contains violation if {
	some failure in input.execution.failures
	failure.reason == "side_effect_unrecorded"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("commit %s was made; %s", [failure.commit, failure.message]),
		"path": failure.path,
	})
}
