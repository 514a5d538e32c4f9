# METADATA
# title: Sandbox result
# description: |
#   A run_sandboxed_code result must be real and shaped as declared: a value
#   (not undefined or null), no placeholder text (TODO, TBD, FIXME, lorem
#   ipsum, "...", "<placeholder>") where a value belongs, and every key of
#   args.expectedShape present with its type ("any" accepts every type). Go
#   reports the result's type, its top-level keys with their types and the
#   start of each string.
# custom:
#   code: SANDBOX_RESULT_INVALID
#   remediation: >-
#     Return the computed value itself, an object with every key of
#     expectedShape holding a value of the declared type.
#   severity: error
package mcpc.rules.exec["sandbox-result"]

import data.mcpc.result

_placeholder_pattern := `(?i)^\s*(todo|tbd|fixme|placeholder|lorem ipsum.*|xxx+|\.\.\.|…|<[^>]*>|n/a|\?+)\s*[.!]?\s*$`

_ok if {
	input.verb == "run_sandboxed_code"
	input.sandbox.ran
	input.sandbox.outcome == "ok"
}

_shape := object.get(input.args, "expectedShape", {})

report contains violation if {
	_ok
	input.sandbox.resultType in {"undefined", "null"}
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the code returned %s: a result is a value", [input.sandbox.resultType]),
		"path": "args.code",
	})
}

report contains violation if {
	_ok
	input.sandbox.resultType == "string"
	regex.match(_placeholder_pattern, input.sandbox.sample)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the code returned the placeholder %q", [input.sandbox.sample]),
		"path": "args.code",
	})
}

report contains violation if {
	_ok
	some key, value in input.sandbox.keys
	value.type == "string"
	regex.match(_placeholder_pattern, value.sample)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("result key %q holds the placeholder %q", [key, value.sample]),
		"path": "args.code",
	})
}

report contains violation if {
	_ok
	count(_shape) > 0
	not input.sandbox.resultType in {"object", "undefined", "null"}
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the result is a %s; expectedShape declares an object", [input.sandbox.resultType]),
		"path": "args.expectedShape",
	})
}

report contains violation if {
	_ok
	input.sandbox.resultType == "object"
	some key, _ in _shape
	not input.sandbox.keys[key]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("result key %q is missing (expectedShape)", [key]),
		"path": sprintf("args.expectedShape.%s", [key]),
	})
}

report contains violation if {
	_ok
	some key, want in _shape
	want != "any"
	got := input.sandbox.keys[key].type
	got != want
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("result key %q is a %s; expectedShape declares %s", [key, got, want]),
		"path": sprintf("args.expectedShape.%s", [key]),
	})
}
