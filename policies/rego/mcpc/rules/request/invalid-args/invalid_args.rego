# METADATA
# title: Invalid arguments
# description: |
#   The request's arguments do not fit the verb: a shape error Go found with the
#   JSON Schemas (input.request.errors, one denial each, and one that counts
#   those Go left out), a required argument of
#   the verb catalogue missing from args, or none of a verb's alternative
#   arguments given (trace_symbol_graph needs symbol, targetFile or query).
#   Each message names the field, the shape the schema expected there (when Go
#   reports it) and a valid args object for the verb (verbs.json example).
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
	parts := array.concat(_expected_part(error), _example_part(error.path))
	violation := result.fail(rego.metadata.chain(), {
		"message": _explain(error.message, parts),
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
		"message": _explain(sprintf("%s requires argument %q", [input.verb, arg]), _example_part(path)),
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
		"message": _explain(
			sprintf("%s requires one of %s", [input.verb, concat(", ", alternatives)]),
			_example_part("args"),
		),
		"path": "args",
		"suggestedVerb": _retry_verb,
	})
}

# Go lists the first shape errors and counts the rest (a request of
# thousands of malformed items would otherwise be answered with a denial
# for each): one more denial says how many were left out.
report contains violation if {
	left_out := object.get(input.request, "errorsLeftOut", 0)
	left_out > 0
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%d more shape errors are not listed; fix the ones listed and send the request again", [left_out]),
		"path": "",
		"suggestedVerb": _retry_verb,
	})
}

_given(arg) if object.get(input.args, arg, null) != null

# A missing argument is reported once: the schema names it at its own path,
# and when args as a whole failed the schema (not an object), what it lacks
# follows from that one fault.
_schema_error_at(path) if {
	some error in input.request.errors
	error.path in {path, "args"}
}

default _retry_verb := ""

_retry_verb := input.verb if turn.known_verb

_explain(message, []) := message

_explain(message, parts) := concat("; ", array.concat([message], parts)) if count(parts) > 0

_expected_part(error) := [sprintf("expected %s", [error.expected])] if object.get(error, "expected", "") != ""

else := []

_example_part(path) := [sprintf("example args: %s", [json.marshal(example)])] if {
	startswith(path, "args")
	example := tables.verbs[input.verb].example
}

else := []
