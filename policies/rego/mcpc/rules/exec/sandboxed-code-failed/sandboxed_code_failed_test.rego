package mcpc.rules.exec["sandboxed-code-failed_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["sandboxed-code-failed"] as rule

_remediation := concat(" ", [
	"Fix the code: it must be an async IIFE using only ECMAScript built-ins and",
	"the global `inputs`, finish within timeoutMs and return a JSON value.",
])

_sandbox(outcome, err) := {
	"ran": true, "outcome": outcome, "error": err, "resultType": "",
	"keys": {}, "sample": "", "durationMs": 1000,
}

test_fail_timeout if {
	r := rule.report with input as fixtures.with_input({
		"verb": "run_sandboxed_code",
		"args": {"planNodeId": "change-1", "code": "(async () => { for (;;) {} })()"},
		"sandboxedCode": _sandbox("timeout", "the script ran past its deadline and was stopped"),
	})
	r == {{
		"code": "SANDBOXED_CODE_FAILED",
		"message": "the sandboxed code failed (timeout): the script ran past its deadline and was stopped",
		"path": "args.code",
		"remediation": _remediation,
		"rule": "mcpc.rules.exec[\"sandboxed-code-failed\"]",
		"severity": "error",
	}}
}

test_fail_did_not_run if {
	r := rule.report with input as fixtures.with_input({
		"verb": "run_sandboxed_code",
		"args": {"planNodeId": "change-1", "code": "1"},
		"sandboxedCode": {"ran": false, "outcome": "", "error": "", "resultType": "", "keys": {}, "sample": "", "durationMs": 0},
	})
	r == {{
		"code": "SANDBOXED_CODE_FAILED",
		"message": "the sandboxed code did not run: the work was not in PLAN_ACCEPTED when the turn started",
		"path": "args.code",
		"remediation": _remediation,
		"rule": "mcpc.rules.exec[\"sandboxed-code-failed\"]",
		"severity": "error",
	}}
}

test_success_ok if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "run_sandboxed_code",
		"args": {"planNodeId": "change-1", "code": "1"},
		"sandboxedCode": _sandbox("ok", ""),
	})
}

test_success_other_verb if {
	count(rule.report) == 0 with input as fixtures.with_input({"verb": "read_file_lines"})
}
