# METADATA
# title: Sandboxed code result
# description: |
#   A run_sandboxed_code result must be real and shaped as declared: a value
#   (not undefined or null), no placeholder text (TODO, TBD, FIXME, lorem
#   ipsum, "...", "<placeholder>") where a value belongs, and every key of
#   args.expectedShape present with its type ("any" accepts every type). Go
#   reports the result's type, its top-level keys with their types and the
#   start of each string.
# custom:
#   code: SANDBOXED_CODE_RESULT_INVALID
#   remediation: >-
#     Return the computed value itself, an object with every key of
#     expectedShape holding a value of the declared type.
#   severity: error
package mcpc.rules.exec["sandboxed-code-result"]

import data.mcpc.result

_placeholder_pattern := `(?i)^\s*(todo|tbd|fixme|placeholder|lorem ipsum.*|xxx+|\.\.\.|…|<[^>]*>|n/a|\?+)\s*[.!]?\s*$`

_ok if {
	input.verb == "run_sandboxed_code"
	input.sandboxedCode.ran
	input.sandboxedCode.outcome == "ok"
}

_shape := object.get(input.args, "expectedShape", {})

report contains violation if {
	_ok
	input.sandboxedCode.resultType in {"undefined", "null"}
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the code returned %s: a result is a value", [input.sandboxedCode.resultType]),
		"path": "args.code",
	})
}

report contains violation if {
	_ok
	input.sandboxedCode.resultType == "string"
	regex.match(_placeholder_pattern, input.sandboxedCode.sample)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the code returned the placeholder %q", [input.sandboxedCode.sample]),
		"path": "args.code",
	})
}

report contains violation if {
	_ok
	some key, value in input.sandboxedCode.keys
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
	not input.sandboxedCode.resultType in {"object", "undefined", "null"}
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("the result is a %s; expectedShape declares an object", [input.sandboxedCode.resultType]),
		"path": "args.expectedShape",
	})
}

report contains violation if {
	_ok
	input.sandboxedCode.resultType == "object"
	some key, _ in _shape
	not input.sandboxedCode.keys[key]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("result key %q is missing (expectedShape)", [key]),
		"path": sprintf("args.expectedShape.%s", [key]),
	})
}

report contains violation if {
	_ok
	some key, want in _shape
	want != "any"
	got := input.sandboxedCode.keys[key].type
	got != want
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("result key %q is a %s; expectedShape declares %s", [key, got, want]),
		"path": sprintf("args.expectedShape.%s", [key]),
	})
}
