# METADATA
# title: Context pack selection
# description: |
#   On initialize_work and escalate, which of retrieval's ranked candidates
#   enter the context pack: every candidate in rank order, first occurrence
#   only, minus mcpc's own files (policies/data/protected.json), those
#   matching an exclusion glob of policies/data/pack.json (git internals,
#   secret file names) and those whose content holds a secret (Go's detector
#   reports the rules that matched as input.candidates[_].secretFindings).
#   escalate grows the pack monotonically: the current pack files come first
#   (less any that is mcpc's own, should an older pack hold one). A kept
#   candidate whose template failed to parse makes the pack insufficient
#   (seed 000 gotcha 7): the work starts, but submit_execution_plan stays
#   blocked until an escalation resolves it.
package mcpc.lib.pack

import data.mcpc.lib.protected
import data.mcpc.lib.tables

# the exclusions a file matches; globs are lower case and match any case
# (certs/server.PEM is as secret as server.pem)
_matches(file) := [rule |
	some rule in tables.packpolicy.exclusions
	glob.match(rule.glob, ["/"], lower(file))
]

_previous := [file |
	some file in input.pack.files
	not protected.is_protected(file)
] if {
	input.verb == "escalate"
}

_previous := [] if input.verb != "escalate"

_previous_set := {file | some file in _previous}

# a candidate whose content holds a secret is a secret whatever its name, and
# left out as silently as the named ones
_kept := [candidate |
	some i, candidate in input.candidates
	not _seen_before(i, candidate.file)
	count(_matches(candidate.file)) == 0
	not protected.is_protected(candidate.file)
	not _holds_secret(candidate)
]

_holds_secret(candidate) if count(candidate.secretFindings) > 0

# a candidate without the fact was never scanned: fail closed
_holds_secret(candidate) if not is_array(object.get(candidate, "secretFindings", null))

_seen_before(i, file) if {
	some j, other in input.candidates
	j < i
	other.file == file
}

# METADATA
# description: |
#   files excluded from the pack and why, except secrets: naming those would
#   tell an agent that a secret file exists and that its content matched what
#   it asked for
excluded := [{"file": candidate.file, "reason": _exclusion_reason(candidate.file)} |
	some i, candidate in input.candidates
	not _seen_before(i, candidate.file)
	_named_exclusion(candidate.file)
	not _holds_secret(candidate)
	every rule in _matches(candidate.file) {
		not rule.secret
	}
]

_named_exclusion(file) if count(_matches(file)) > 0

_named_exclusion(file) if protected.is_protected(file)

_exclusion_reason(file) := protected.reason(file)

_exclusion_reason(file) := _matches(file)[0].reason if not protected.is_protected(file)

# METADATA
# description: the pack's files in rank order
files := array.concat(_previous, [candidate.file |
	some candidate in _kept
	not candidate.file in _previous_set
])

# METADATA
# description: the pack decision
selection := {"files": files, "excluded": excluded}

_unparsed := [candidate.file | some candidate in _kept; candidate.parseError == true]

# METADATA
# scope: document
# description: ok, or pack_insufficient when a kept template could not be parsed
default outcome := "ok"

outcome := "pack_insufficient" if count(_unparsed) > 0

# METADATA
# description: seed 002's pack insufficiency report
insufficiency := {
	"missingAnchors": [{
		"anchorType": "template",
		"requiredBy": file,
		"whyRequired": sprintf("%s could not be parsed, so its component usages are unknown", [file]),
		"attemptedSources": ["template_ast"],
		"confidence": 0,
	} |
		some file in _unparsed
	],
	"escalationPlan": [{
		"action": "escalate",
		"type": "artifact_fetch",
		"target": file,
		"detail": sprintf("provide a parseable %s or confirm its component usages", [file]),
	} |
		some file in _unparsed
	],
	"blockedCommands": ["submit_execution_plan"],
}
