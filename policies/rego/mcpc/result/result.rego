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
			"message": _bounded(details.message),
			"path": _bounded(details.path),
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

# METADATA
# scope: document
# description: |
#   s in double quotes as %q writes it, its first 64 characters and its
#   length when longer: how a message names a value the request sent (a
#   verb, a workId, a key), which can be as long as the request
quoted(s) := sprintf("%q", [s]) if count(s) <= 64

quoted(s) := sprintf("%q… (%d characters)", [substring(s, 0, 64), count(s)]) if count(s) > 64

# A message or path longer than 2,048 characters is cut there: text that
# quotes what the agent sent must not hand a hostile request its own
# megabytes back (a 4 MB verb came back in a 25 MB answer, quoted in each
# denial, its reason and the suggested action).
_bounded(s) := _cut(s, 2048)

_cut(s, n) := s if count(s) <= n

_cut(s, n) := sprintf("%s… (%d characters more)", [substring(s, 0, n), count(s) - n]) if count(s) > n
