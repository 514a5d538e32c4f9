# METADATA
# title: Invalid arguments
# description: |
#   The request's arguments do not fit the verb: a shape error Go found with the
#   JSON Schemas (input.request.errors, one denial each), a required argument of
#   the verb catalogue missing from args, or none of a verb's alternative
#   arguments given (trace_symbol_graph needs symbol, targetFile or query).
# custom:
#   code: INVALID_ARGS
#   remediation: >-
#     Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the
#     documented types.
#   severity: error
package mcpc.rules.request["invalid-args"]

import data.mcpc.lib.tables
import data.mcpc.lib.turn
import data.mcpc.result

report contains violation if {
	some error in input.request.errors
	violation := result.fail(rego.metadata.chain(), {
		"message": error.message,
		"path": error.path,
		"suggestedVerb": _retry_verb,
	})
}

report contains violation if {
	input.request.decoded # args of a request that could not be read are unknown, not missing
	turn.known_verb
	some arg in tables.verbs[input.verb].requiredArgs
	object.get(input.args, arg, null) == null
	path := sprintf("args.%s", [arg])
	not _schema_error_at(path)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s requires argument %q", [input.verb, arg]),
		"path": path,
		"suggestedVerb": _retry_verb,
	})
}

report contains violation if {
	input.request.decoded
	alternatives := tables.verb_policy[input.verb].requiredOneOf
	every arg in alternatives {
		not _given(arg)
	}
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s requires one of %s", [input.verb, concat(", ", alternatives)]),
		"path": "args",
		"suggestedVerb": _retry_verb,
	})
}

_given(arg) if object.get(input.args, arg, null) != null

_schema_error_at(path) if {
	some error in input.request.errors
	error.path == path
}

default _retry_verb := ""

_retry_verb := input.verb if turn.known_verb
