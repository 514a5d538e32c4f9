package mcpc.rules.plan["protected-target_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["protected-target"] as rule

_remediation := concat(" ", [
	"mcpc's configuration, seed knowledge, memory, policies, state and client wiring are changed by",
	"people, not agents; plan changes to repository files only.",
])

_change(id, target) := {
	"nodeId": id,
	"kind": "change",
	"targetFile": target,
}

_submission(nodes) := fixtures.with_input({
	"verb": "submit_execution_plan",
	"submission": {"nodes": nodes},
})

test_fail_seed_migration_rules if {
	r := rule.report with input as _submission([
		_change("n1", "src/a.ts"),
		_change("n2", "./.ai//graph/seed/policies/migration_rules.jsonl"),
	])
	r == {{
		"code": "PROTECTED_PATH",
		"message": "change node n2 targets ./.ai//graph/seed/policies/migration_rules.jsonl, which is mcpc's own: mcpc's seed knowledge (MigrationRules, contracts): people change it, agents see it as facts",
		"path": "args.planGraph.nodes[1].targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.plan[\"protected-target\"]",
		"severity": "error",
	}}
}

test_fail_client_wiring_in_another_case if {
	r := rule.report with input as _submission([_change("n1", ".Claude/settings.json")])
	r == {{
		"code": "PROTECTED_PATH",
		"message": "change node n1 targets .Claude/settings.json, which is mcpc's own: Claude Code client wiring mcpc writes",
		"path": "args.planGraph.nodes[0].targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.plan[\"protected-target\"]",
		"severity": "error",
	}}
}

test_success_repository_targets if {
	r := rule.report with input as _submission([_change("n1", "src/a.ts"), _change("n2", "src/.ai/config/x.json")])
	count(r) == 0
}

# a target already in the pack is not judged again: only a pack built before
# protected paths existed could hold one, and its patch is denied anyway
test_success_target_in_old_pack_is_left_to_the_patch if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"pack": {"ref": "p", "hash": "h", "files": ["src/a.ts", ".ai/graph/seed/contracts.jsonl"]},
		"submission": {"nodes": [_change("n1", ".ai/graph/seed/contracts.jsonl")]},
	})
	count(r) == 0
}
