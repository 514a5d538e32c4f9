package mcpc.rules.exec["intent-scope_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["intent-scope"] as rule

_intents(target) := {
	"present": true,
	"error": "",
	"target": target,
	"active": [
		{"id": "INT-001", "name": "alerts", "status": "IN_PROGRESS", "ownedScope": ["src/app/alerts/**"]},
		{"id": "INT-002", "name": "grid", "status": "IN_PROGRESS", "ownedScope": ["src/app/*.ts"]},
	],
}

test_fail_outside_every_scope if {
	r := rule.report with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"intents": _intents("src/app/grid/grid.component.ts"),
	})
	r == {{
		"code": "SCOPE_VIOLATION",
		"message": "src/app/grid/grid.component.ts is outside the owned_scope of every active intent (INT-001, INT-002)",
		"path": "args.targetFile",
		"remediation": "Write only files an active intent owns, or have a person widen the intent's owned_scope in .orchestration/active_intents.yaml.",
		"rule": "mcpc.rules.exec[\"intent-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_success_inside_a_deep_glob if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"intents": _intents("src/app/alerts/deep/alert.ts"),
	})
}

test_success_single_star_stays_in_its_folder if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"intents": _intents("src/app/app.ts"),
	})
}

test_success_no_sidecar if {
	count(rule.report) == 0 with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"intents": {"present": false, "error": "", "target": "src/x.ts", "active": []},
	})
}
