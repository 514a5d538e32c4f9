package mcpc.rules.exec["create-content_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["create-content"] as rule

_patch(operation, target) := fixtures.with_input({
	"verb": "apply_code_patch",
	"state": "PLAN_ACCEPTED",
	"args": {"planNodeId": "c1", "targetFile": target, "edits": [
		{"op": "replace_text", "find": "a", "replace": "b"},
		{"op": "set_content", "content": "export const x = 1;\n"},
	]},
	"paths": {"targetFile": {"raw": target, "canonical": target, "valid": false, "problems": ["not_found"], "exists": false}},
	"plan": {"accepted": true, "started": true, "nodes": {"c1": {
		"nodeId": "c1", "kind": "change", "operation": operation,
		"targetFile": "src/new.ts", "status": "pending",
	}}},
})

test_fail_set_content_on_a_modify_node if {
	r := rule.report with input as _patch("modify", "src/new.ts")
	r == {{
		"code": "PLAN_SCOPE_VIOLATION",
		"rule": "mcpc.rules.exec[\"create-content\"]",
		"message": "set_content writes a whole file; src/new.ts is not the file of a create change node",
		"path": "args.edits[1]",
		"remediation": "Change existing files with replace_text or a codemod; set_content is for a file a create node adds.",
		"severity": "error",
		"suggestedVerb": "apply_code_patch",
	}}
}

test_fail_set_content_on_another_file if {
	r := rule.report with input as _patch("create", "src/other.ts")
	count(r) == 1
}

test_success_set_content_creates if {
	r := rule.report with input as _patch("create", "src/new.ts")
	count(r) == 0
}
