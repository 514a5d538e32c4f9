# METADATA
# title: Rule result helper
# description: |
#   Turns a rule's METADATA chain and the details it found into the structured
#   denial of the contract: {code, rule, message, path, remediation, severity}.
#   Every rule under mcpc.rules reports through fail/2 so codes and
#   remediations live only in METADATA. A suggestedVerb (from details, else from
#   custom.suggestedVerb) rides along for mcpc.main and is stripped there.
package mcpc.result

# METADATA
# description: |
#   The violation for a rule package whose METADATA carries custom.code,
#   custom.remediation and custom.severity; details carries message and path.
fail(chain, details) := violation if {
	some link in chain
	link.annotations.scope == "package"
	[prefix, category, name] := _rule_path(link.path)
	custom := link.annotations.custom
	violation := object.union(
		{
			"code": custom.code,
			"rule": sprintf("%s.%s[%q]", [prefix, category, name]),
			"message": details.message,
			"path": details.path,
			"remediation": custom.remediation,
			"severity": object.get(custom, "severity", "error"),
		},
		_suggestion(custom, details),
	)
}

# a default rule (mcpc.rules.<category>.<rule>) or a repository-local one
# (mcpc.local.rules.<category>.<rule>, from .ai/policies)
_rule_path(["mcpc", "rules", category, name]) := ["mcpc.rules", category, name]

_rule_path(["mcpc", "local", "rules", category, name]) := ["mcpc.local.rules", category, name]

_suggestion(_, details) := {"suggestedVerb": details.suggestedVerb} if details.suggestedVerb != ""

_suggestion(custom, details) := {"suggestedVerb": custom.suggestedVerb} if {
	object.get(details, "suggestedVerb", "") == ""
	custom.suggestedVerb != ""
}

_suggestion(custom, details) := {} if {
	object.get(details, "suggestedVerb", "") == ""
	object.get(custom, "suggestedVerb", "") == ""
}
