package mcpc.result_test

import data.mcpc.result

_chain := [{
	"path": ["mcpc", "rules", "request", "example"],
	"annotations": {
		"scope": "package",
		"custom": {"code": "EXAMPLE", "remediation": "Do the other thing.", "severity": "warning"},
	},
}]

test_success_fail_carries_metadata if {
	result.fail(_chain, {"message": "m", "path": "p"}) == {
		"code": "EXAMPLE",
		"rule": "mcpc.rules.request[\"example\"]",
		"message": "m",
		"path": "p",
		"remediation": "Do the other thing.",
		"severity": "warning",
	}
}

test_fail_long_message_is_cut if {
	long := concat("", ["é" | some _ in numbers.range(1, 5000)])
	v := result.fail(_chain, {"message": long, "path": long})
	head := substring(long, 0, 2048)
	v.message == sprintf("%s… (2952 characters more)", [head])
	v.path == v.message
}

test_success_quoted_short_value_whole if {
	result.quoted("a\"b") == "\"a\\\"b\""
}

test_success_quoted_long_value_by_its_head if {
	s := concat("", ["x" | some _ in numbers.range(1, 65)])
	result.quoted(s) == sprintf("\"%s\"… (65 characters)", [substring(s, 0, 64)])
}
