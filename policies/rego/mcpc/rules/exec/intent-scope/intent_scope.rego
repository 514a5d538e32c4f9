# METADATA
# title: Intent scope
# description: |
#   When .orchestration/active_intents.yaml exists, a write must fall inside the
#   owned_scope (globs, "/" delimited) of one of its active intents (seed 004).
#   Go reports the sidecar's active intents and the file the turn writes.
# custom:
#   code: SCOPE_VIOLATION
#   remediation: >-
#     Write only files an active intent owns, or have a person widen the
#     intent's owned_scope in .orchestration/active_intents.yaml.
#   severity: error
#   suggestedVerb: escalate
package mcpc.rules.exec["intent-scope"]

import data.mcpc.result

report contains violation if {
	input.intents.present
	input.intents.error == ""
	count(input.intents.active) > 0
	target := input.intents.target
	target != ""
	not _owned(target)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is outside the owned_scope of every active intent (%s)", [target, concat(", ", _ids)]),
		"path": "args.targetFile",
	})
}

_owned(target) if {
	some intent in input.intents.active
	some pattern in intent.ownedScope
	glob.match(pattern, ["/"], target)
}

_ids contains intent.id if some intent in input.intents.active
