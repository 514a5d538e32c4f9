package mcpc.rules.scope["protected-path_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.scope["protected-path"] as rule

_remediation := concat(" ", [
	"mcpc's configuration, seed knowledge, memory, policies, state and client wiring are changed by",
	"people, not agents; what informs your work is in the context pack as facts. Work on repository files.",
])

_target(raw, canonical) := {"targetFile": {
	"raw": raw,
	"canonical": canonical,
	"valid": true,
	"problems": [],
	"exists": true,
	"regular": true,
	"dir": false,
	"size": 1,
	"links": 1,
}}

test_fail_read_config if {
	r := rule.report with input as fixtures.with_input({
		"args": {"targetFile": "./.ai//config/repo.json"},
		"paths": _target("./.ai//config/repo.json", ".ai/config/repo.json"),
	})
	r == {{
		"code": "PROTECTED_PATH",
		"message": ".ai/config/repo.json is mcpc's own: mcpc's configuration (validation commands, budgets): an agent must not change the rules it runs under",
		"path": "args.targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.scope[\"protected-path\"]",
		"severity": "error",
	}}
}

test_fail_patch_seed_in_another_case if {
	r := rule.report with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"args": {"targetFile": ".AI/graph/Seed/policies/migration_rules.jsonl", "edits": []},
		"paths": _target(".AI/graph/Seed/policies/migration_rules.jsonl", ".AI/graph/Seed/policies/migration_rules.jsonl"),
	})
	r == {{
		"code": "PROTECTED_PATH",
		"message": ".AI/graph/Seed/policies/migration_rules.jsonl is mcpc's own: mcpc's seed knowledge (MigrationRules, contracts): people change it, agents see it as facts",
		"path": "args.targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.scope[\"protected-path\"]",
		"severity": "error",
	}}
}

test_fail_search_client_wiring if {
	r := rule.report with input as fixtures.with_input({
		"verb": "search_codebase_text",
		"args": {"pattern": "token", "files": ["src/a.ts", ".mcp.json"]},
		"paths": {},
	})
	r == {{
		"code": "PROTECTED_PATH",
		"message": "\".mcp.json\" is mcpc's own: MCP client wiring mcpc writes",
		"path": "args.files[1]",
		"remediation": _remediation,
		"rule": "mcpc.rules.scope[\"protected-path\"]",
		"severity": "error",
	}}
}

test_fail_scratch_outside_its_folder if {
	r := rule.report with input as fixtures.with_input({
		"verb": "write_scratch_file",
		"args": {"relativePath": "x", "content": "hi"},
		"paths": {"relativePath": {
			"raw": "x",
			"canonical": "x",
			"valid": false,
			"problems": ["not_found"],
			"destination": ".ai/tmp/work/work-1/context-pack.json",
			"scratchRoot": ".ai/tmp/work/work-1/scratch",
		}},
	})
	r == {{
		"code": "PROTECTED_PATH",
		"message": ".ai/tmp/work/work-1/context-pack.json is mcpc's own and outside the work's scratch folder",
		"path": "args.relativePath",
		"remediation": _remediation,
		"rule": "mcpc.rules.scope[\"protected-path\"]",
		"severity": "error",
	}}
}

test_success_scratch_in_its_folder if {
	r := rule.report with input as fixtures.with_input({
		"verb": "write_scratch_file",
		"args": {"relativePath": "notes/a.md", "content": "hi"},
		"paths": {"relativePath": {
			"raw": "notes/a.md",
			"canonical": "notes/a.md",
			"valid": false,
			"problems": ["not_found"],
			"destination": ".ai/tmp/work/work-1/scratch/notes/a.md",
			"scratchRoot": ".ai/tmp/work/work-1/scratch",
		}},
	})
	count(r) == 0
}

test_success_repository_file if {
	r := rule.report with input as fixtures.with_input({
		"args": {"targetFile": "src/a.ts"},
		"paths": _target("src/a.ts", "src/a.ts"),
	})
	count(r) == 0
}

# a pack built before protected paths existed may hold one: it may still be
# read, never patched
test_success_read_of_old_pack_file if {
	r := rule.report with input as fixtures.with_input({
		"args": {"targetFile": ".ai/graph/seed/contracts.jsonl"},
		"pack": {"ref": "p", "hash": "h", "files": [".ai/graph/seed/contracts.jsonl"]},
		"paths": _target(".ai/graph/seed/contracts.jsonl", ".ai/graph/seed/contracts.jsonl"),
	})
	count(r) == 0
}

test_fail_patch_of_old_pack_file if {
	r := rule.report with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"args": {"targetFile": ".ai/graph/seed/contracts.jsonl", "edits": []},
		"pack": {"ref": "p", "hash": "h", "files": [".ai/graph/seed/contracts.jsonl"]},
		"paths": _target(".ai/graph/seed/contracts.jsonl", ".ai/graph/seed/contracts.jsonl"),
	})
	r == {{
		"code": "PROTECTED_PATH",
		"message": ".ai/graph/seed/contracts.jsonl is mcpc's own: mcpc's seed knowledge (MigrationRules, contracts): people change it, agents see it as facts",
		"path": "args.targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.scope[\"protected-path\"]",
		"severity": "error",
	}}
}

test_fail_lexeme_recipe_on_old_pack_file if {
	r := rule.report with input as fixtures.with_input({
		"verb": "run_automation_recipe",
		"args": {"recipeId": "replace_lexeme_in_file", "planNodeId": "n1", "params": {"lexeme": "unknown", "replacement": "approved"}},
		"pack": {"ref": "p", "hash": "h", "files": [".ai/graph/seed/policies/migration_rules.jsonl"]},
		"paths": _target(".ai/graph/seed/policies/migration_rules.jsonl", ".ai/graph/seed/policies/migration_rules.jsonl"),
	})
	r == {{
		"code": "PROTECTED_PATH",
		"message": ".ai/graph/seed/policies/migration_rules.jsonl is mcpc's own: mcpc's seed knowledge (MigrationRules, contracts): people change it, agents see it as facts",
		"path": "args.targetFile",
		"remediation": _remediation,
		"rule": "mcpc.rules.scope[\"protected-path\"]",
		"severity": "error",
	}}
}
