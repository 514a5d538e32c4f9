# METADATA
# title: mcpc hook decision
# description: |
#   The query `mcpc hook` evaluates for one host tool event (docs/hooks.md):
#   every rule of mcpc.rules.hook, deny when one reports an error, ask when
#   one asks, allow otherwise. Turn decisions (mcpc.main) never walk this
#   category: no verb lists it in verbPolicy.
package mcpc.hook

_violations contains violation if {
	some rule in data.mcpc.rules.hook
	some violation in rule.report
}

_ordered := sort([[v.code, v.path, v.message, v.rule, v] | some v in _violations])

_of(severity) := [entry[4] | some entry in _ordered; entry[4].severity == severity]

# METADATA
# scope: document
# description: deny on any error, ask on any ask, else allow
default permission := "allow"

permission := "ask" if {
	count(_of("error")) == 0
	count(_of("ask")) > 0
}

permission := "deny" if count(_of("error")) > 0

# METADATA
# title: decision
# description: the hook decision Go maps to the host's format
# entrypoint: true
decision := {
	"permission": permission,
	"denials": _of("error"),
	"asks": _of("ask"),
	"workId": object.get(input, ["work", "id"], ""),
}
