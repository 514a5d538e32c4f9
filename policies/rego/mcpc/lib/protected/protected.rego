# METADATA
# title: mcpc's own files
# description: |
#   Which repository paths are mcpc's own (policies/data/protected.json:
#   configuration, seed knowledge, memory, prose policies, inbox, runtime
#   state, trace ledger and the MCP client wiring mcpc writes). People change
#   them; an agent never sees them as pack files and never writes them.
#   Globs are lower case and match any case (.AI/config is .ai/config on a
#   case-insensitive filesystem). Paths Go resolved are canonical already;
#   a path taken verbatim from a plan is cleaned here of empty and "."
#   segments (./.ai//config is .ai/config). Look-alike characters name
#   other files and are left alone; ".." segments are left to the scope
#   rules, which deny them.
package mcpc.lib.protected

import data.mcpc.lib.tables

# METADATA
# scope: document
# description: path, lower case, without empty and "." segments
clean(path) := concat("/", [segment |
	some segment in split(lower(path), "/")
	not segment in {"", "."}
])

# every protected glob as one alternation: one match per path
_glob := sprintf("{%s}", [concat(",", [entry.glob | some entry in tables.protected_paths])])

# an empty or "." segment: only then is clean more than lower
_needs_clean(path) if regex.match(`(^|/)\.?(/|$)`, path)

# METADATA
# scope: document
# description: the path is one of mcpc's own files or folders
is_protected(path) if {
	not _needs_clean(path)
	glob.match(_glob, ["/"], lower(path))
}

is_protected(path) if {
	_needs_clean(path)
	glob.match(_glob, ["/"], clean(path))
}

# METADATA
# scope: document
# description: why the path is mcpc's own, one reason per matching entry (empty when it is not)
reasons(path) := [entry.reason |
	cleaned := clean(path)
	glob.match(_glob, ["/"], cleaned)
	some entry in tables.protected_paths
	glob.match(entry.glob, ["/"], cleaned)
]

# METADATA
# scope: document
# description: why the path is mcpc's own (the first matching entry)
reason(path) := reasons(path)[0]
