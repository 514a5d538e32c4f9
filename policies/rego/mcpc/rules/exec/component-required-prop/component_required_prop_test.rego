package mcpc.rules.exec["component-required-prop_test"]

import data.mcpc.rules.exec["component-required-prop"] as rule

_contracts := {
	"sdf-button": {
		"props": [
			{"name": "variant", "type": "\"primary\" | \"secondary\"", "required": false},
			{"name": "label", "type": "string", "required": true},
		],
		"events": [],
	},
	"sdf-input": {"props": [{"name": "maxLength", "type": "number", "required": true}], "events": []},
}

_patch(verb, elements) := {
	"verb": verb,
	"patch": {"applicable": true, "edits": 1, "problems": [], "elements": elements, "contracts": _contracts},
}

_denial(message) := {
	"code": "EXEC_CONTRACT_VIOLATION",
	"rule": "mcpc.rules.exec[\"component-required-prop\"]",
	"message": message,
	"path": "args.edits",
	"remediation": concat(" ", [
		"Set every required prop the component's contract declares (listed in the message) on the element,",
		"e.g. map an attribute to it with rewrite_template_tag's propMappings.",
	]),
	"severity": "error",
	"suggestedVerb": "apply_code_patch",
}

test_fail_missing_required_prop if {
	r := rule.report with input as _patch("apply_code_patch", [{"tag": "sdf-button", "attributes": ["variant", "(click)"], "line": 4}])
	r == {_denial("<sdf-button> at line 4 does not set label, which its components.d.ts contract requires")}
}

test_fail_event_or_template_syntax_does_not_set_a_prop if {
	r := rule.report with input as _patch("run_automation_recipe", [{"tag": "sdf-button", "attributes": ["(label)", "#label", "*label"], "line": 1}])
	r == {_denial("<sdf-button> at line 1 does not set label, which its components.d.ts contract requires")}
}

test_success_required_prop_in_every_setting_form if {
	every attributes in [["label"], ["[label]"], ["[(label)]"]] {
		count(rule.report) == 0 with input as _patch("apply_code_patch", [{"tag": "sdf-button", "attributes": attributes, "line": 1}])
	}
}

test_success_dash_case_attribute if {
	r := rule.report with input as _patch("apply_code_patch", [{"tag": "sdf-input", "attributes": ["max-length"], "line": 1}])
	count(r) == 0
}

test_success_other_verbs if {
	r := rule.report with input as _patch("read_file_lines", [{"tag": "sdf-button", "attributes": [], "line": 1}])
	count(r) == 0
}

test_success_element_without_contract if {
	r := rule.report with input as _patch("apply_code_patch", [{"tag": "sdf-card", "attributes": [], "line": 1}])
	count(r) == 0
}
