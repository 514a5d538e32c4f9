# METADATA
# title: Sandboxed code failed
# description: |
#   run_sandboxed_code counts only when the code settled to a value inside its
#   limits: a timeout (an endless loop is interrupted), a heap past the memory
#   cap, a thrown error (require, process, timers and I/O do not exist there),
#   a promise that never settles, or a result too large or without JSON form
#   is refused. Go runs the code and reports its outcome.
# custom:
#   code: SANDBOXED_CODE_FAILED
#   remediation: >-
#     Fix the code: it must be an async IIFE using only ECMAScript built-ins and
#     the global `inputs`, finish within timeoutMs and return a JSON value.
#   severity: error
package mcpc.rules.exec["sandboxed-code-failed"]

import data.mcpc.result

report contains violation if {
	input.verb == "run_sandboxed_code"
	input.sandboxedCode.ran
	input.sandboxedCode.outcome != "ok"
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the sandboxed code failed (%s): %s", [input.sandboxedCode.outcome, input.sandboxedCode.error]),
		"path": "args.code",
	})
}

report contains violation if {
	input.verb == "run_sandboxed_code"
	not input.sandboxedCode.ran
	violation := result.fail(rego.metadata.chain(), {
		"message": "the sandboxed code did not run: the work was not in PLAN_ACCEPTED when the turn started",
		"path": "args.code",
	})
}
