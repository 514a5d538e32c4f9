package mcpc.rules.request["request-too-large_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.request["request-too-large"] as rule

test_fail_request_over_its_share if {
	r := rule.report with input as fixtures.with_input({"request": {"bytes": 48004, "tokens": 12001}})
	r == {{
		"code": "REQUEST_TOO_LARGE",
		"message": "the request is 48004 bytes (12001 tokens), over the 12000 tokens one request may cost (200/1000 of the agent threshold); it is charged 12000",
		"path": "request.bytes",
		"remediation": "Send smaller requests: split a plan's or a patch's work over several turns (a patch per file, a scratch file in parts).",
		"rule": "mcpc.rules.request[\"request-too-large\"]",
		"severity": "error",
	}}
}

test_fail_share_follows_config if {
	r := rule.report with input as fixtures.with_input({
		"request": {"bytes": 2004, "tokens": 501},
		"budget": {"maxTokens": 10000, "thresholdPermille": 500, "requestMaxPermille": 100},
	})
	r == {{
		"code": "REQUEST_TOO_LARGE",
		"message": "the request is 2004 bytes (501 tokens), over the 500 tokens one request may cost (100/1000 of the agent threshold); it is charged 500",
		"path": "request.bytes",
		"remediation": "Send smaller requests: split a plan's or a patch's work over several turns (a patch per file, a scratch file in parts).",
		"rule": "mcpc.rules.request[\"request-too-large\"]",
		"severity": "error",
	}}
}

test_success_request_at_its_share if {
	r := rule.report with input as fixtures.with_input({"request": {"bytes": 48000, "tokens": 12000}})
	count(r) == 0
}
