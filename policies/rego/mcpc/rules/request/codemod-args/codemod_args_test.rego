package mcpc.rules.request["codemod-args_test"]

import data.mcpc.rules.request["codemod-args"] as rule

_remediation := concat(" ", [
	"Name a codemod listed for apply_code_patch (rename_identifier_in_file, update_import_specifier,",
	"update_route_path_literal, rewrite_template_tag or one configured in codemods.custom) with the params",
	"its entry documents.",
])

_denial(message, path) := {
	"code": "INVALID_ARGS",
	"rule": "mcpc.rules.request[\"codemod-args\"]",
	"message": message,
	"path": path,
	"remediation": _remediation,
	"severity": "error",
	"suggestedVerb": "apply_code_patch",
}

_patch(edits) := {"verb": "apply_code_patch", "args": {"planNodeId": "c1", "targetFile": "src/a.ts", "edits": edits}}

_custom := {"config": {"codemods": {"adp_alert": {"description": "x", "params": {}}}}}

test_fail_unknown_codemod if {
	r := rule.report with input as _patch([{"op": "codemod", "codemod": "rm_rf", "params": {}}])
	r == {_denial(
		"unknown codemod \"rm_rf\" (one of rename_identifier_in_file, rewrite_template_tag, update_import_specifier, update_route_path_literal)",
		"args.edits[0].codemod",
	)}
}

test_fail_unknown_codemod_lists_configured_ones if {
	r := rule.report with input as object.union(_patch([{"op": "codemod", "codemod": "nope"}]), _custom)
	r == {_denial(
		"unknown codemod \"nope\" (one of adp_alert, rename_identifier_in_file, rewrite_template_tag, update_import_specifier, update_route_path_literal)",
		"args.edits[0].codemod",
	)}
}

test_fail_unknown_and_missing_params if {
	r := rule.report with input as _patch([
		{"op": "replace_text", "find": "a", "replace": "b"},
		{"op": "codemod", "codemod": "rename_identifier_in_file", "params": {"from": "a", "scope": "all"}},
	])
	r == {
		_denial("codemod rename_identifier_in_file has no param \"scope\"", "args.edits[1].params.scope"),
		_denial("codemod rename_identifier_in_file requires param \"to\"", "args.edits[1].params"),
	}
}

test_fail_param_values if {
	r := rule.report with input as _patch([{"op": "codemod", "codemod": "rewrite_template_tag", "params": {
		"fromTag": "<script>",
		"toTag": 7,
		"propMappings": {"type": 1, "x y": "children"},
	}}])
	r == {
		_denial("codemod rewrite_template_tag param fromTag must match ^[a-z][a-z0-9]*(-[a-z0-9]+)+$", "args.edits[0].params.fromTag"),
		_denial("codemod rewrite_template_tag param toTag must be a string", "args.edits[0].params.toTag"),
		_denial("codemod rewrite_template_tag param propMappings entry \"type\" must be a string", "args.edits[0].params.propMappings"),
		_denial(
			"codemod rewrite_template_tag param propMappings key \"x y\" must match ^[A-Za-z_$][A-Za-z0-9_$.-]*$",
			"args.edits[0].params.propMappings",
		),
	}
}

test_fail_groups if {
	r := rule.report with input as _patch([
		{"op": "codemod", "codemod": "update_import_specifier", "params": {"module": "./a", "to": "B"}},
		{"op": "codemod", "codemod": "rewrite_template_tag", "params": {"toTag": "sdf-alert"}},
	])
	r == {
		_denial("codemod update_import_specifier requires one of the params from, toModule", "args.edits[0].params"),
		_denial("codemod update_import_specifier takes the params from, to together", "args.edits[0].params"),
		_denial("codemod rewrite_template_tag requires one of the params fromTag, from", "args.edits[1].params"),
	}
}

test_fail_configured_codemod_takes_no_params if {
	r := rule.report with input as object.union(
		_patch([{"op": "codemod", "codemod": "adp_alert", "params": {"fromTag": "a-b"}}]),
		_custom,
	)
	r == {_denial("codemod adp_alert has no param \"fromTag\"", "args.edits[0].params.fromTag")}
}

test_fail_too_long if {
	long := concat("", [x | some _ in numbers.range(1, 257); x := "a"])
	r := rule.report with input as _patch([{"op": "codemod", "codemod": "rename_identifier_in_file", "params": {"from": long, "to": "b"}}])
	r == {_denial("codemod rename_identifier_in_file param from is longer than 256 characters", "args.edits[0].params.from")}
}

test_success_valid_codemods if {
	r := rule.report with input as object.union(
		_patch([
			{"op": "codemod", "codemod": "rename_identifier_in_file", "params": {"from": "a", "to": "b"}},
			{"op": "codemod", "codemod": "update_import_specifier", "params": {"module": "./a", "toModule": "./b"}},
			{"op": "codemod", "codemod": "update_route_path_literal", "params": {"from": "", "to": "home"}},
			{"op": "codemod", "codemod": "rewrite_template_tag", "params": {
				"from": "adp-alert",
				"to": "sdf-alert",
				"propMappings": {"message": "children"},
			}},
			{"op": "codemod", "codemod": "adp_alert"},
			{"op": "replace_text", "find": "x", "replace": "y"},
		]),
		_custom,
	)
	count(r) == 0
}

test_success_other_verbs if {
	r := rule.report with input as {"verb": "read_file_lines", "args": {"edits": [{"op": "codemod", "codemod": "nope"}]}}
	count(r) == 0
}
