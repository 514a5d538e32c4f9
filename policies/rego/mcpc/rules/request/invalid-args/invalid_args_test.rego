package mcpc.rules.request["invalid-args_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.request["invalid-args"] as rule

test_fail_schema_errors_one_denial_each if {
	r := rule.report with input as fixtures.with_input({"request": {"decoded": true, "errors": [
		{
			"path": "args.startLine",
			"message": "expected integer, got string",
			"expected": "{\"minimum\":1,\"type\":\"integer\"}",
		},
		{
			"path": "args.endLine",
			"message": "expected integer, got string",
		},
	]}})
	r == {
		{
			"code": "INVALID_ARGS",
			"message": "expected integer, got string; example args: {\"endLine\":40,\"startLine\":1,\"targetFile\":\"src/app/app.component.html\"}",
			"path": "args.endLine",
			"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
			"rule": "mcpc.rules.request[\"invalid-args\"]",
			"severity": "error",
			"suggestedVerb": "read_file_lines",
		},
		{
			"code": "INVALID_ARGS",
			"message": "expected integer, got string; expected {\"minimum\":1,\"type\":\"integer\"}; example args: {\"endLine\":40,\"startLine\":1,\"targetFile\":\"src/app/app.component.html\"}",
			"path": "args.startLine",
			"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
			"rule": "mcpc.rules.request[\"invalid-args\"]",
			"severity": "error",
			"suggestedVerb": "read_file_lines",
		},
	}
}

test_fail_required_arg_missing if {
	r := rule.report with input as fixtures.with_input({
		"verb": "apply_code_patch",
		"state": "PLAN_ACCEPTED",
		"args": {"targetFile": "src/a.ts"},
	})
	r == {
		{
			"code": "INVALID_ARGS",
			"message": "apply_code_patch requires argument \"edits\"; example args: {\"edits\":[{\"find\":\"adp-alert\",\"occurrence\":1,\"op\":\"replace_text\",\"replace\":\"sdf-alert\"}],\"planNodeId\":\"change-1\",\"targetFile\":\"src/app/app.component.html\"}",
			"path": "args.edits",
			"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
			"rule": "mcpc.rules.request[\"invalid-args\"]",
			"severity": "error",
			"suggestedVerb": "apply_code_patch",
		},
		{
			"code": "INVALID_ARGS",
			"message": "apply_code_patch requires argument \"planNodeId\"; example args: {\"edits\":[{\"find\":\"adp-alert\",\"occurrence\":1,\"op\":\"replace_text\",\"replace\":\"sdf-alert\"}],\"planNodeId\":\"change-1\",\"targetFile\":\"src/app/app.component.html\"}",
			"path": "args.planNodeId",
			"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
			"rule": "mcpc.rules.request[\"invalid-args\"]",
			"severity": "error",
			"suggestedVerb": "apply_code_patch",
		},
	}
}

test_fail_schema_error_not_duplicated if {
	r := rule.report with input as fixtures.with_input({
		"verb": "search_codebase_text",
		"args": {},
		"request": {"decoded": true, "errors": [{
			"path": "args.pattern",
			"message": "missing property",
		}]},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "missing property; example args: {\"pattern\":\"adp-alert\"}",
		"path": "args.pattern",
		"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
		"rule": "mcpc.rules.request[\"invalid-args\"]",
		"severity": "error",
		"suggestedVerb": "search_codebase_text",
	}}
}

test_fail_args_not_an_object_reported_once if {
	r := rule.report with input as fixtures.with_input({
		"verb": "read_file_lines",
		"args": {},
		"request": {"decoded": true, "errors": [{
			"path": "args",
			"message": "expected object, but got string",
		}]},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "expected object, but got string; example args: {\"endLine\":40,\"startLine\":1,\"targetFile\":\"src/app/app.component.html\"}",
		"path": "args",
		"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
		"rule": "mcpc.rules.request[\"invalid-args\"]",
		"severity": "error",
		"suggestedVerb": "read_file_lines",
	}}
}

test_fail_trace_needs_one_of if {
	r := rule.report with input as fixtures.with_input({
		"verb": "trace_symbol_graph",
		"args": {"depth": 2},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "trace_symbol_graph requires one of symbol, targetFile, query; example args: {\"symbol\":\"DashboardComponent\"}",
		"path": "args",
		"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
		"rule": "mcpc.rules.request[\"invalid-args\"]",
		"severity": "error",
		"suggestedVerb": "trace_symbol_graph",
	}}
}

test_success_trace_with_symbol if {
	r := rule.report with input as fixtures.with_input({
		"verb": "trace_symbol_graph",
		"args": {"symbol": "A"},
	})
	count(r) == 0
}

test_success_required_args_present if {
	r := rule.report with input as fixtures.with_input({})
	count(r) == 0
}

test_fail_unread_request_reports_only_why if {
	r := rule.report with input as fixtures.with_input({
		"verb": "read_file_lines",
		"args": {},
		"request": {"decoded": false, "errors": [{
			"path": "",
			"message": "the request is 5000000 bytes, over the limit of 4194304",
		}]},
	})
	r == {{
		"code": "INVALID_ARGS",
		"message": "the request is 5000000 bytes, over the limit of 4194304",
		"path": "",
		"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
		"rule": "mcpc.rules.request[\"invalid-args\"]",
		"severity": "error",
		"suggestedVerb": "read_file_lines",
	}}
}

test_fail_errors_left_out_counted_once if {
	r := rule.report with input as fixtures.with_input({"request": {
		"decoded": true,
		"errors": [{"path": "args.startLine", "message": "expected integer, got string"}],
		"errorsLeftOut": 4980,
	}})
	r == {
		{
			"code": "INVALID_ARGS",
			"message": "expected integer, got string; example args: {\"endLine\":40,\"startLine\":1,\"targetFile\":\"src/app/app.component.html\"}",
			"path": "args.startLine",
			"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
			"rule": "mcpc.rules.request[\"invalid-args\"]",
			"severity": "error",
			"suggestedVerb": "read_file_lines",
		},
		{
			"code": "INVALID_ARGS",
			"message": "4980 more shape errors are not listed; fix the ones listed and send the request again",
			"path": "",
			"remediation": "Send the arguments verbDescriptions lists for this verb (requiredArgs, optionalArgs) with the documented types.",
			"rule": "mcpc.rules.request[\"invalid-args\"]",
			"severity": "error",
			"suggestedVerb": "read_file_lines",
		},
	}
}
