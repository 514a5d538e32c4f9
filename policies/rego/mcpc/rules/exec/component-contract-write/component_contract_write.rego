# METADATA
# title: Component contract at write time
# description: |
#   A patch may not leave a custom element whose tag has a components.d.ts
#   contract (input.patch.contracts) with an attribute or binding the contract
#   does not declare. Go reports the contracted elements the dry run's patch
#   introduces or changes (input.patch.elements: tag, attribute names as
#   written, line); a name counts by what is inside its Angular binding syntax
#   ([x], (x), [(x)]); an event binding (x) counts when the contract declares
#   the custom event x (input.patch.contracts[tag].events, Stencil's @Event
#   names from components.d.ts). Standard global attributes, aria-/data-/attr./class./
#   style. names, DOM events and template syntax (*ngIf, #ref, let-x, @anim)
#   are allowed by policies/data/contracts.json. The same holds for
#   run_automation_recipe's replace_lexeme_in_file, whose result Go checks the
#   same way; when Go could not check it (input.patch.problems) it is refused.
# custom:
#   code: EXEC_CONTRACT_VIOLATION
#   remediation: >-
#     Use only the props the component's contract declares (listed in the message), or map the attribute
#     with rewrite_template_tag's propMappings; escalate if the contract lacks a prop the change needs.
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.exec["component-contract-write"]

import data.mcpc.lib.tables
import data.mcpc.result

_writes := {"apply_code_patch", "run_automation_recipe"}

report contains violation if {
	input.verb in _writes
	some element in input.patch.elements
	contract := input.patch.contracts[element.tag]
	declared := {prop.name | some prop in contract.props}
	some attribute in element.attributes
	binding := _binding(attribute)
	not _allowed(attribute, binding, declared)
	not _declared_event(binding, contract)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"<%s> at line %d has %s, which its components.d.ts contract does not declare (declared props: %s%s)",
			[element.tag, element.line, attribute, _listed(declared), _events_listed(contract)],
		),
		"path": "args.edits",
	})
}

# A patch's problems are patch-applicable's; a recipe has no other rule
# for them.
report contains violation if {
	input.verb == "run_automation_recipe"
	some problem in input.patch.problems
	violation := result.fail(rego.metadata.chain(), {
		"message": problem.message,
		"path": problem.path,
	})
}

# _binding is an attribute's kind and the name inside its binding syntax.
_binding(name) := {"kind": "two-way", "name": trim_suffix(trim_prefix(name, "[("), ")]")} if {
	startswith(name, "[(")
	endswith(name, ")]")
} else := {"kind": "property", "name": trim_suffix(trim_prefix(name, "["), "]")} if {
	startswith(name, "[")
	endswith(name, "]")
} else := {"kind": "event", "name": trim_suffix(trim_prefix(name, "("), ")")} if {
	startswith(name, "(")
	endswith(name, ")")
} else := {"kind": "attribute", "name": name}

_allowed(_, binding, declared) if binding.name in declared

_allowed(attribute, _, _) if {
	some prefix in tables.component_contracts.templatePrefixes
	startswith(attribute, prefix)
}

_allowed(_, binding, _) if binding.name in tables.component_contracts.globalAttributes

_allowed(_, binding, _) if {
	some prefix in tables.component_contracts.attributePrefixes
	startswith(binding.name, prefix)
}

# An event binding may carry modifiers: (keyup.enter).
_allowed(_, binding, _) if {
	binding.kind == "event"
	split(binding.name, ".")[0] in tables.component_contracts.domEvents
}

# An event binding listens to a custom event the component declares.
_declared_event(binding, contract) if {
	binding.kind == "event"
	binding.name in contract.events
}

_events_listed(contract) := sprintf("; events: %s", [concat(", ", sort(contract.events))]) if _has_events(contract)

# A contract without events (or whose events Go left out) lists none.
_events_listed(contract) := "" if not _has_events(contract)

_has_events(contract) if count(contract.events) > 0

_listed(declared) := concat(", ", sort(declared)) if count(declared) > 0

_listed(declared) := "none" if count(declared) == 0
