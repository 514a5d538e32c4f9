package mcpc.rules.scope["scratch-scope_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.scope["scratch-scope"] as rule

test_fail_traversal if {
	r := rule.report with input as fixtures.with_input({
		"verb": "write_scratch_file",
		"args": {
			"relativePath": "../x",
			"content": "hi",
		},
		"paths": {"relativePath": {
			"raw": "../x",
			"canonical": "../x",
			"valid": false,
			"problems": [
				"traversal",
				"not_found",
			],
			"exists": false,
			"regular": false,
			"dir": false,
			"size": 0,
			"links": 0,
		}},
	})
	r == {{
		"code": "SCRATCH_SCOPE_VIOLATION",
		"message": "\"../x\" contains a traversal segment",
		"path": "args.relativePath",
		"remediation": "Use a plain relative path inside scratch/ (no traversal, absolute, escaped or linked paths) and keep the content under the configured size.",
		"rule": "mcpc.rules.scope[\"scratch-scope\"]",
		"severity": "error",
		"suggestedVerb": "write_scratch_file",
	}}
}

test_fail_too_large if {
	r := rule.report with input as fixtures.with_input({
		"verb": "write_scratch_file",
		"args": {
			"relativePath": "notes.md",
			"content": "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9",
		},
		"paths": {"relativePath": {
			"raw": "notes.md",
			"canonical": "notes.md",
			"valid": false,
			"problems": ["not_found"],
			"exists": false,
			"regular": false,
			"dir": false,
			"size": 0,
			"links": 0,
		}},
	})
	r == {{
		"code": "SCRATCH_SCOPE_VIOLATION",
		"message": "content is 80 bytes, more than the scratch limit of 64",
		"path": "args.content",
		"remediation": "Use a plain relative path inside scratch/ (no traversal, absolute, escaped or linked paths) and keep the content under the configured size.",
		"rule": "mcpc.rules.scope[\"scratch-scope\"]",
		"severity": "error",
		"suggestedVerb": "write_scratch_file",
	}}
}

test_success_new_file if {
	r := rule.report with input as fixtures.with_input({
		"verb": "write_scratch_file",
		"args": {
			"relativePath": "notes.md",
			"content": "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9",
		},
		"paths": {"relativePath": {
			"raw": "notes.md",
			"canonical": "notes.md",
			"valid": false,
			"problems": ["not_found"],
			"exists": false,
			"regular": false,
			"dir": false,
			"size": 0,
			"links": 0,
		}},
	})
	count(r) == 0
}

test_fail_scratch_folder_through_a_link if {
	r := rule.report with input as fixtures.with_input({
		"verb": "write_scratch_file",
		"args": {"relativePath": "n.md", "content": "hi"},
		"paths": {"relativePath": {
			"raw": "n.md", "canonical": "", "valid": false, "problems": ["scratch_unavailable"],
			"exists": false, "regular": false, "dir": false, "size": 0, "links": 0,
		}},
	})
	r == {{
		"code": "SCRATCH_SCOPE_VIOLATION",
		"message": "\"n.md\" cannot be written: the work's scratch folder is reached through a link or cannot be opened",
		"path": "args.relativePath",
		"remediation": "Use a plain relative path inside scratch/ (no traversal, absolute, escaped or linked paths) and keep the content under the configured size.",
		"rule": "mcpc.rules.scope[\"scratch-scope\"]",
		"severity": "error",
		"suggestedVerb": "write_scratch_file",
	}}
}
