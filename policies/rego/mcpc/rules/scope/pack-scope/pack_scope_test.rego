package mcpc.rules.scope["pack-scope_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.scope["pack-scope"] as rule

test_fail_traversal if {
	r := rule.report with input as fixtures.with_input({
		"args": {"targetFile": "src/../../etc/passwd"},
		"paths": {"targetFile": {
			"raw": "src/../../etc/passwd",
			"canonical": "../etc/passwd",
			"valid": false,
			"problems": [
				"traversal",
				"escapes_worktree",
			],
			"exists": true,
			"regular": true,
			"dir": false,
			"size": 1,
			"links": 1,
			"hash": "sha256:aaa",
		}},
	})
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "\"src/../../etc/passwd\" contains a traversal segment",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

_outside(canonical, exists, problems) := fixtures.with_input({
	"args": {"targetFile": canonical},
	"paths": {"targetFile": {
		"raw": canonical,
		"canonical": canonical,
		"valid": count(problems) == 0,
		"problems": problems,
		"exists": exists,
		"regular": exists,
		"dir": false,
		"size": 0,
		"links": 1,
	}},
})

# a secret left out of the pack, a missing file and a link outside the pack
# get the same denial: what the filesystem says of them is not reported
test_fail_outside_pack_alike_whatever_is_there if {
	want := {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "config/x is not in the context pack",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
	rule.report == want with input as _outside("config/x", true, [])
	rule.report == want with input as _outside("config/x", false, ["not_found"])
	rule.report == want with input as _outside("config/x", true, ["not_regular"])
	rule.report == want with input as _outside("config/x", true, ["escapes_worktree", "symlink"])
}

# in the pack, what the filesystem says is reported
test_fail_pack_file_gone if {
	r := rule.report with input as _outside("src/a.ts", false, ["not_found"])
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "\"src/a.ts\" does not exist",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_fail_not_in_pack if {
	r := rule.report with input as fixtures.with_input({
		"args": {"targetFile": "src/b.ts"},
		"paths": {"targetFile": {
			"raw": "src/b.ts",
			"canonical": "src/b.ts",
			"valid": true,
			"problems": [],
			"exists": true,
			"regular": true,
			"dir": false,
			"size": 1,
			"links": 1,
			"hash": "sha256:aaa",
		}},
	})
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "src/b.ts is not in the context pack",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_fail_git_internal if {
	r := rule.report with input as fixtures.with_input({
		"args": {"targetFile": ".git/config"},
		"paths": {"targetFile": {
			"raw": ".git/config",
			"canonical": ".git/config",
			"valid": false,
			"problems": ["git_internal"],
			"exists": true,
			"regular": true,
			"dir": false,
			"size": 1,
			"links": 1,
			"hash": "sha256:aaa",
		}},
	})
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "\".git/config\" is inside .git",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_fail_missing_path_facts if {
	r := rule.report with input as fixtures.with_input({"paths": {}})
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "read_file_lines has no resolvable targetFile",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_fail_search_files_outside_pack if {
	r := rule.report with input as fixtures.with_input({
		"verb": "search_codebase_text",
		"args": {
			"pattern": "x",
			"files": [
				"src/a.ts",
				"secrets/.env",
			],
		},
		"paths": {},
	})
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "\"secrets/.env\" is not in the context pack",
		"path": "args.files[1]",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_fail_lookup_target_outside_pack if {
	r := rule.report with input as fixtures.with_input({
		"verb": "lookup_symbol_definition",
		"args": {
			"symbol": "A",
			"targetFile": "src/b.ts",
		},
		"paths": {"targetFile": {
			"raw": "src/b.ts",
			"canonical": "src/b.ts",
			"valid": true,
			"problems": [],
			"exists": true,
			"regular": true,
			"dir": false,
			"size": 1,
			"links": 1,
			"hash": "sha256:aaa",
		}},
	})
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "src/b.ts is not in the context pack",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_success_canonical_in_pack if {
	r := rule.report with input as fixtures.with_input({
		"args": {"targetFile": "src/./a.ts"},
		"paths": {"targetFile": {
			"raw": "src/./a.ts",
			"canonical": "src/a.ts",
			"valid": true,
			"problems": [],
			"exists": true,
			"regular": true,
			"dir": false,
			"size": 1,
			"links": 1,
			"hash": "sha256:aaa",
		}},
	})
	count(r) == 0
}

test_success_search_without_files if {
	r := rule.report with input as fixtures.with_input({
		"verb": "search_codebase_text",
		"args": {"pattern": "x"},
		"paths": {},
	})
	count(r) == 0
}

_create_patch(operation) := fixtures.with_input({
	"verb": "apply_code_patch",
	"state": "PLAN_ACCEPTED",
	"args": {"planNodeId": "c1", "targetFile": "src/new.ts", "edits": [{"op": "set_content", "content": "x"}]},
	"paths": {"targetFile": {
		"raw": "src/new.ts", "canonical": "src/new.ts", "valid": false, "problems": ["not_found"],
		"exists": false, "regular": false, "dir": false, "size": 0, "links": 0,
	}},
	"plan": {"accepted": true, "started": true, "nodes": {"c1": {
		"nodeId": "c1", "kind": "change", "operation": operation,
		"targetFile": "src/new.ts", "status": "pending",
	}}},
})

test_success_create_node_file_needs_no_pack_entry if {
	r := rule.report with input as _create_patch("create")
	count(r) == 0
}

# outside the pack, a missing file is denied as any other file would be
test_fail_missing_file_of_a_modify_node if {
	r := rule.report with input as _create_patch("modify")
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "src/new.ts is not in the context pack",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

_existing := {"targetFile": {
	"raw": "src/new.ts", "canonical": "src/new.ts", "valid": true, "problems": [],
	"exists": true, "regular": true, "dir": false, "size": 1, "links": 1, "hash": "sha256:x",
}}

test_success_created_file_patched_again if {
	r := rule.report with input as object.union(_create_patch("create"), {"paths": _existing, "reads": {"src/new.ts": "sha256:x"}})
	count(r) == 0
}

test_fail_create_node_over_an_existing_unseen_file if {
	r := rule.report with input as object.union(_create_patch("create"), {"paths": _existing, "reads": {}})
	r == {{
		"code": "PACK_SCOPE_VIOLATION",
		"message": "src/new.ts is not in the context pack",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}
