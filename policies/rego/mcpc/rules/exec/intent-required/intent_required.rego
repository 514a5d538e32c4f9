# METADATA
# title: Intent required
# description: |
#   When .orchestration/active_intents.yaml exists, every write is made under an
#   active intent (seed 004): a sidecar that cannot be read, or that lists no
#   active intent, refuses every write (fail closed).
# custom:
#   code: INTENT_REQUIRED
#   remediation: >-
#     Fix .orchestration/active_intents.yaml so it lists an active intent
#     (id, status, owned_scope) that owns the file.
#   severity: error
#   suggestedVerb: escalate
package mcpc.rules.exec["intent-required"]

import data.mcpc.result

report contains violation if {
	input.intents.present
	input.intents.target != ""
	input.intents.error != ""
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s cannot be written: %s", [input.intents.target, input.intents.error]),
		"path": "args.targetFile",
	})
}

report contains violation if {
	input.intents.present
	input.intents.target != ""
	input.intents.error == ""
	count(input.intents.active) == 0
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%s cannot be written: .orchestration/active_intents.yaml lists no active intent",
			[input.intents.target],
		),
		"path": "args.targetFile",
	})
}
