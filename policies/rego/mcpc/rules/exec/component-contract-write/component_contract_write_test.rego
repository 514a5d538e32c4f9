package mcpc.rules.exec["component-contract-write_test"]

import data.mcpc.rules.exec["component-contract-write"] as rule

_button := {"sdf-button": {"props": [
	{"name": "variant", "type": "\"primary\" | \"secondary\"", "required": false},
	{"name": "disabled", "type": "boolean", "required": false},
	{"name": "label", "type": "string", "required": true},
]}}

_button_with_events := {"sdf-button": object.union(_button["sdf-button"], {"events": ["sdfChange", "sdf-focus"]})}

_patch(attributes) := {
	"verb": "apply_code_patch",
	"patch": {
		"applicable": true, "edits": 1, "problems": [],
		"elements": [{"tag": "sdf-button", "attributes": attributes, "line": 3}],
		"contracts": _button,
	},
}

_denial(message) := {
	"code": "EXEC_CONTRACT_VIOLATION",
	"rule": "mcpc.rules.exec[\"component-contract-write\"]",
	"message": message,
	"path": "args.edits",
	"remediation": concat(" ", [
		"Use only the props the component's contract declares (listed in the message), or map the attribute",
		"with rewrite_template_tag's propMappings; escalate if the contract lacks a prop the change needs.",
	]),
	"severity": "error",
	"suggestedVerb": "apply_code_patch",
}

test_fail_invented_property_binding if {
	r := rule.report with input as _patch(["[invented]", "label"])
	r == {_denial("<sdf-button> at line 3 has [invented], which its components.d.ts contract does not declare (declared props: disabled, label, variant)")}
}

test_fail_undeclared_plain_attribute_and_two_way if {
	r := rule.report with input as _patch(["type", "[(size)]", "variant"])
	r == {
		_denial("<sdf-button> at line 3 has type, which its components.d.ts contract does not declare (declared props: disabled, label, variant)"),
		_denial("<sdf-button> at line 3 has [(size)], which its components.d.ts contract does not declare (declared props: disabled, label, variant)"),
	}
}

test_fail_custom_event_not_in_contract if {
	r := rule.report with input as _patch(["(dismissed)"])
	r == {_denial("<sdf-button> at line 3 has (dismissed), which its components.d.ts contract does not declare (declared props: disabled, label, variant)")}
}

test_fail_contract_without_props if {
	r := rule.report with input as {
		"verb": "apply_code_patch",
		"patch": {
			"elements": [{"tag": "sdf-divider", "attributes": ["[thickness]"], "line": 1}],
			"contracts": {"sdf-divider": {"props": []}},
		},
	}
	r == {_denial("<sdf-divider> at line 1 has [thickness], which its components.d.ts contract does not declare (declared props: none)")}
}

test_success_declared_props_in_every_binding_form if {
	r := rule.report with input as _patch(["label", "[variant]", "[(disabled)]"])
	count(r) == 0
}

test_success_global_template_and_event_attributes if {
	r := rule.report with input as _patch([
		"class", "id", "style", "aria-label", "data-test", "[attr.aria-pressed]", "[class.active]",
		"[style.width.px]", "*ngIf", "#ref", "let-row", "@fade", "(click)", "(keyup.enter)", "[ngClass]", "label",
	])
	count(r) == 0
}

test_success_other_verbs_ignore_patch_elements if {
	r := rule.report with input as object.union(_patch(["[invented]"]), {"verb": "read_file_lines"})
	count(r) == 0
}

test_success_no_elements if {
	r := rule.report with input as {"verb": "apply_code_patch", "patch": {"elements": [], "contracts": {}}}
	count(r) == 0
}

test_fail_recipe_result_with_undeclared_binding if {
	r := rule.report with input as object.union(_patch(["[label]", "[invented]"]), {"verb": "run_automation_recipe"})
	r == {_denial("<sdf-button> at line 3 has [invented], which its components.d.ts contract does not declare (declared props: disabled, label, variant)")}
}

test_fail_recipe_result_not_checked if {
	r := rule.report with input as {"verb": "run_automation_recipe", "patch": {"elements": [], "contracts": {}, "problems": [{
		"path": "args.targetFile",
		"message": "the component contracts could not be checked: graph closed",
	}]}}
	r == {object.union(_denial("the component contracts could not be checked: graph closed"), {"path": "args.targetFile"})}
}

test_success_declared_custom_event if {
	r := rule.report with input as object.union(_patch(["(sdfChange)", "(sdf-focus)", "label"]), {"patch": {"contracts": _button_with_events}})
	count(r) == 0
}

test_fail_undeclared_custom_event_lists_the_events if {
	r := rule.report with input as object.union(_patch(["(sdfChange)", "(sdfBlur)", "[sdfChange]"]), {"patch": {"contracts": _button_with_events}})
	r == {
		_denial("<sdf-button> at line 3 has (sdfBlur), which its components.d.ts contract does not declare (declared props: disabled, label, variant; events: sdf-focus, sdfChange)"),
		_denial("<sdf-button> at line 3 has [sdfChange], which its components.d.ts contract does not declare (declared props: disabled, label, variant; events: sdf-focus, sdfChange)"),
	}
}

test_fail_contract_with_null_events if {
	contracts := {"sdf-button": object.union(_button["sdf-button"], {"events": null})}
	r := rule.report with input as object.union(_patch(["(sdfChange)"]), {"patch": {"contracts": contracts}})
	r == {_denial("<sdf-button> at line 3 has (sdfChange), which its components.d.ts contract does not declare (declared props: disabled, label, variant)")}
}
