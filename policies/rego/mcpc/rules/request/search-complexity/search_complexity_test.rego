package mcpc.rules.request["search-complexity_test"]

import data.mcpc.rules.request["search-complexity"] as rule

test_fail_regex_over_the_limit if {
	r := rule.report with input as {
		"verb": "search_codebase_text",
		"search": {"regex": true, "instructions": 501, "maxInstructions": 500},
	}
	r == {{
		"code": "SEARCH_PATTERN_TOO_COMPLEX",
		"rule": "mcpc.rules.request[\"search-complexity\"]",
		"message": "the pattern compiles to 501 instructions, over the limit of 500",
		"path": "args.pattern",
		"remediation": "Use a literal pattern (regex false), or a regular expression with fewer or smaller repeats; narrow the search with args.files.",
		"severity": "error",
		"suggestedVerb": "search_codebase_text",
	}}
}

test_success_regex_at_the_limit if {
	r := rule.report with input as {
		"verb": "search_codebase_text",
		"search": {"regex": true, "instructions": 500, "maxInstructions": 500},
	}
	count(r) == 0
}

test_success_literal_pattern if {
	r := rule.report with input as {
		"verb": "search_codebase_text",
		"search": {"regex": false, "instructions": 900, "maxInstructions": 500},
	}
	count(r) == 0
}
