# METADATA
# title: Unknown verb
# description: The request's verb is not in the verb catalogue (policies/data/verbs.json).
# custom:
#   code: UNKNOWN_VERB
#   remediation: "Call one of the verbs listed in capabilities; verbDescriptions says what each does."
#   severity: error
package mcpc.rules.request["unknown-verb"]

import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	not turn.known_verb
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is not a verb of this controller", [result.quoted(input.verb)]),
		"path": "verb",
	})
}
