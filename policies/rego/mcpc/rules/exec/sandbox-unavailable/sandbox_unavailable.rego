# METADATA
# title: Sandbox unavailable
# description: |
#   Validation commands and side effects run code an agent may have written
#   (a patched script, a repository hook) and run only in the OS sandbox.
#   Where none can be made (input.sandbox.available is false: bwrap missing
#   or failing its self-test) they are refused, unless configuration
#   explicitly allows running them unsandboxed (sandbox.allowUnsandboxed).
# custom:
#   code: SANDBOX_UNAVAILABLE
#   remediation: >-
#     Ask a person to install bubblewrap (Debian package bubblewrap) where mcpc runs, or to
#     set sandbox.allowUnsandboxed in .ai/config to run commands with mcpc's own authority.
#   severity: error
#   suggestedVerb: escalate
package mcpc.rules.exec["sandbox-unavailable"]

import data.mcpc.result

# the verbs that run commands in the workspace
_runs_commands if {
	input.verb == "run_automation_recipe"
	input.args.recipeId == "run_targeted_validation"
}

_runs_commands if input.verb == "execute_gated_side_effect"

report contains violation if {
	_runs_commands
	not input.sandbox.available
	not input.sandbox.allowUnsandboxed
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s runs commands only in a sandbox, and none can be made here: %s", [
			input.verb,
			input.sandbox.reason,
		]),
		"path": "verb",
	})
}
