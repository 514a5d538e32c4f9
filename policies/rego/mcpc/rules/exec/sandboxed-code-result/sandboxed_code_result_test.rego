package mcpc.rules.exec["sandboxed-code-result_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["sandboxed-code-result"] as rule

_remediation := concat(" ", [
	"Return the computed value itself, an object with every key of",
	"expectedShape holding a value of the declared type.",
])

_run(shape, result_type, keys, sample) := fixtures.with_input({
	"verb": "run_sandboxed_code",
	"args": {"planNodeId": "change-1", "code": "...", "expectedShape": shape},
	"sandboxedCode": {
		"ran": true, "outcome": "ok", "error": "", "resultType": result_type,
		"keys": keys, "sample": sample, "durationMs": 3,
	},
})

_denial(message, path) := {
	"code": "SANDBOXED_CODE_RESULT_INVALID",
	"message": message,
	"path": path,
	"remediation": _remediation,
	"rule": "mcpc.rules.exec[\"sandboxed-code-result\"]",
	"severity": "error",
}

test_fail_wrong_type if {
	r := rule.report with input as _run(
		{"count": "number", "files": "array"},
		"object", {"count": {"type": "string", "sample": "3"}, "files": {"type": "array"}}, "",
	)
	r == {_denial("result key \"count\" is a string; expectedShape declares number", "args.expectedShape.count")}
}

test_fail_missing_key if {
	r := rule.report with input as _run({"count": "number"}, "object", {}, "")
	r == {_denial("result key \"count\" is missing (expectedShape)", "args.expectedShape.count")}
}

test_fail_placeholder_value if {
	r := rule.report with input as _run({"summary": "string"}, "object", {"summary": {"type": "string", "sample": "TODO"}}, "")
	r == {_denial("result key \"summary\" holds the placeholder \"TODO\"", "args.code")}
}

test_fail_placeholder_string if {
	r := rule.report with input as _run({}, "string", {}, "<placeholder>")
	r == {_denial("the code returned the placeholder \"<placeholder>\"", "args.code")}
}

test_fail_undefined if {
	r := rule.report with input as _run({}, "undefined", {}, "")
	r == {_denial("the code returned undefined: a result is a value", "args.code")}
}

test_fail_not_an_object if {
	r := rule.report with input as _run({"count": "number"}, "array", {}, "")
	r == {_denial("the result is a array; expectedShape declares an object", "args.expectedShape")}
}

test_success_shaped if {
	count(rule.report) == 0 with input as _run(
		{"count": "number", "extra": "any"},
		"object", {"count": {"type": "number"}, "extra": {"type": "null"}}, "",
	)
}

test_success_real_string if {
	count(rule.report) == 0 with input as _run({}, "string", {}, "42 files still use adp-alert")
}
