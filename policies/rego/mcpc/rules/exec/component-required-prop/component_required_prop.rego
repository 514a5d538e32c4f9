# METADATA
# title: Required component props at write time
# description: |
#   A patch may not leave a custom element whose components.d.ts contract
#   (input.patch.contracts) declares a required prop (one without "?") that the
#   element does not set. Go reports the contracted elements the dry run's
#   patch introduces or changes (input.patch.elements: tag, attribute names as
#   written, line); a prop is set by an attribute of its name, or of its
#   dash-case name (maxLength: max-length), or by a [prop] or [(prop)]
#   binding. An element the patch leaves as it was is not the patch's. The same
#   holds for run_automation_recipe's replace_lexeme_in_file.
# custom:
#   code: EXEC_CONTRACT_VIOLATION
#   remediation: >-
#     Set every required prop the component's contract declares (listed in the message) on the element,
#     e.g. map an attribute to it with rewrite_template_tag's propMappings.
#   severity: error
#   suggestedVerb: apply_code_patch
package mcpc.rules.exec["component-required-prop"]

import data.mcpc.result

_writes := {"apply_code_patch", "run_automation_recipe"}

report contains violation if {
	input.verb in _writes
	some element in input.patch.elements
	set := {name | some attribute in element.attributes; some name in _sets(attribute)}
	some prop in input.patch.contracts[element.tag].props
	prop.required == true
	not prop.name in set
	not _dash_case(prop.name) in set
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"<%s> at line %d does not set %s, which its components.d.ts contract requires",
			[element.tag, element.line, prop.name],
		),
		"path": "args.edits",
	})
}

# _sets are the prop names an attribute sets: a property or two-way
# binding's inner name, or a plain attribute's name; an event binding or
# template syntax sets none.
_sets(attribute) := {trim_suffix(trim_prefix(attribute, "[("), ")]")} if {
	startswith(attribute, "[(")
	endswith(attribute, ")]")
} else := {trim_suffix(trim_prefix(attribute, "["), "]")} if {
	startswith(attribute, "[")
	endswith(attribute, "]")
} else := set() if {
	regex.match(`^[(*#@]`, attribute)
} else := {attribute}

_dash_case(name) := lower(regex.replace(name, `([a-z0-9])([A-Z])`, "$1-$2"))
