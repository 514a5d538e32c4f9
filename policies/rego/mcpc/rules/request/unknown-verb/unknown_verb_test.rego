package mcpc.rules.request["unknown-verb_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.request["unknown-verb"] as rule

test_fail_unknown_verb if {
	r := rule.report with input as fixtures.with_input({"verb": "list_scoped_files"})
	r == {{
		"code": "UNKNOWN_VERB",
		"rule": "mcpc.rules.request[\"unknown-verb\"]",
		"message": "\"list_scoped_files\" is not a verb of this controller",
		"path": "verb",
		"remediation": "Call one of the verbs listed in capabilities; verbDescriptions says what each does.",
		"severity": "error",
	}}
}

test_success_known_verb if {
	r := rule.report with input as fixtures.with_input({"verb": "read_file_lines"})
	count(r) == 0
}

# A verb as long as the request is named by its head and its length: the
# denial must not hand a megabyte verb back.
test_fail_unknown_verb_long_is_named_by_its_head if {
	verb := concat("", ["Q" | some _ in numbers.range(1, 300)])
	head := concat("", ["Q" | some _ in numbers.range(1, 64)])
	r := rule.report with input as fixtures.with_input({"verb": verb})
	r == {{
		"code": "UNKNOWN_VERB",
		"rule": "mcpc.rules.request[\"unknown-verb\"]",
		"message": sprintf("\"%s\"… (300 characters) is not a verb of this controller", [head]),
		"path": "verb",
		"remediation": "Call one of the verbs listed in capabilities; verbDescriptions says what each does.",
		"severity": "error",
	}}
}
