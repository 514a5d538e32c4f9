package mcpc.rules.exec["intent-required_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["intent-required"] as rule

_remediation := "Fix .orchestration/active_intents.yaml so it lists an active intent (id, status, owned_scope) that owns the file."

test_fail_unreadable_sidecar if {
	r := rule.report with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"intents": {"present": true, "error": "active_intents.yaml is not valid: yaml: line 2", "target": "src/a.ts", "active": []},
	})
	r == {{
		"code": "INTENT_REQUIRED",
		"message": "src/a.ts cannot be written: active_intents.yaml is not valid: yaml: line 2",
		"path": "args.targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.exec[\"intent-required\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_fail_no_active_intent if {
	r := rule.report with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"intents": {"present": true, "error": "", "target": "src/a.ts", "active": []},
	})
	r == {{
		"code": "INTENT_REQUIRED",
		"message": "src/a.ts cannot be written: .orchestration/active_intents.yaml lists no active intent",
		"path": "args.targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.exec[\"intent-required\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_success_active_intent if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"intents": {"present": true, "error": "", "target": "src/a.ts", "active": [{"id": "I", "name": "", "status": "", "ownedScope": ["src/**"]}]},
	})
}

test_success_not_a_write if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "read_file_lines",
		"intents": {"present": true, "error": "", "target": "", "active": []},
	})
}
