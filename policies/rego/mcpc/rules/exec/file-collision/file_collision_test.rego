package mcpc.rules.exec["file-collision_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.exec["file-collision"] as rule

_holder(agent, work) := {
	"file": "src/a.ts", "workId": work, "nodeId": "change-1",
	"agentId": agent, "expiresAt": "2026-11-25T01:00:00Z",
}

_write(reservation) := fixtures.with_input({
	"verb": "apply_code_patch",
	"intents": {"present": false, "error": "", "target": "src/a.ts", "active": []},
	"reservation": reservation,
})

test_fail_held_by_another_agent if {
	r := rule.report with input as _write({"held": true, "expired": false, "holder": _holder("agent-2", "work-1")})
	r == {{
		"code": "EXEC_SIDE_EFFECT_COLLISION",
		"message": "src/a.ts is held by agent agent-2 of work work-1 for plan node change-1 until it completes or fails (at the latest 2026-11-25T01:00:00Z)",
		"path": "args.targetFile",
		"remediation": concat(" ", [
			"Wait until the holder's node completes or fails (its validation runs), or",
			"coordinate with the holding agent; then read the file again and retry.",
		]),
		"rule": "mcpc.rules.exec[\"file-collision\"]",
		"severity": "error",
		"suggestedVerb": "read_file_lines",
	}}
}

test_fail_same_agent_id_of_another_work if {
	count(rule.report) == 1 with input as _write({"held": true, "expired": false, "holder": _holder("agent-1", "work-2")})
}

test_success_own_hold if {
	count(rule.report) == 0 with input as _write({"held": true, "expired": false, "holder": _holder("agent-1", "work-1")})
}

test_success_expired_hold if {
	count(rule.report) == 0 with input as _write({"held": true, "expired": true, "holder": _holder("agent-2", "work-1")})
}

test_success_free if {
	count(rule.report) == 0 with input as _write({"held": false, "expired": false, "holder": {}})
}
