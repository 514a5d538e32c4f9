package mcpc.rules.request["memory-override-invalid_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.request["memory-override-invalid"] as rule

test_fail_bad_override_reported if {
	r := rule.report with input as fixtures.with_input({"verb": "initialize_work", "enforcement": object.union(fixtures.domain_enforcement, {"problems": [{
		"source": "override", "file": ".ai/memory/overrides/bad.json",
		"problems": [{"path": "planRule", "message": "missing property 'denyCode'"}],
	}]})})
	r == {{
		"code": "PACK_INSUFFICIENT",
		"rule": "mcpc.rules.request[\"memory-override-invalid\"]",
		"message": "override .ai/memory/overrides/bad.json not used: planRule missing property 'denyCode'",
		"path": "enforcement.override",
		"remediation": concat("", [
			"Ask a person to fix the file named in the message (its schema is schemas/memory-record.schema.json); ",
			"it is ingested at the next initialize_work.",
		]),
		"severity": "warning",
	}}
}

test_success_nothing_to_report if {
	count(rule.report) == 0 with input as fixtures.with_input({"verb": "initialize_work", "enforcement": fixtures.domain_enforcement})
}
