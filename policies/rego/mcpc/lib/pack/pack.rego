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
#   (less any that is mcpc's own, should an older pack hold one). The size
#   and count limits are applied here too (input.config.pack): new files
#   enter in rank order, at most maxFiles of them (escalateMaxFiles on
#   escalate), until their sizes add up past maxBytes; the top candidate
#   always enters an empty pack. Go writes exactly these files, so the
#   decision, its record and the real pack agree. A selected candidate whose
#   template failed to parse makes the pack insufficient (seed 000 gotcha 7):
#   the work starts, but submit_execution_plan stays blocked until an
#   escalation resolves it.
package mcpc.lib.pack

import data.mcpc.lib.protected
import data.mcpc.lib.tables

# every secret-name glob as one alternation, so a candidate costs one match
# however long the list grows; globs are lower case and match any case
# (certs/server.PEM is as secret as server.pem)
_secret_glob := sprintf("{%s}", [concat(",", [rule.glob |
	some rule in tables.packpolicy.exclusions
	rule.secret
])])

# the exclusions that are no secret (git internals): they are named
_named_rules := [rule |
	some rule in tables.packpolicy.exclusions
	not rule.secret
]

_previous := [file |
	some file in input.pack.files
	not protected.is_protected(file)
] if {
	input.verb == "escalate"
}

_previous := [] if input.verb != "escalate"

_previous_set := {file | some file in _previous}

# each distinct candidate, classified once: hidden (a secret by name or by
# content: left out as silently as if it did not exist) and the reasons a
# named exclusion (mcpc's own files, git internals) gives
_classified := [entry |
	some i, candidate in input.candidates
	not _seen_before(i, candidate.file)
	lowered := lower(candidate.file)
	entry := {
		"candidate": candidate,
		"hidden": _hidden(candidate, lowered),
		"reasons": array.concat(
			protected.reasons(candidate.file),
			[rule.reason | some rule in _named_rules; glob.match(rule.glob, ["/"], lowered)],
		),
	}
]

default _hidden(_, _) := false

_hidden(_, lowered) if glob.match(_secret_glob, ["/"], lowered)

_hidden(candidate, _) if _holds_secret(candidate)

_kept := [entry.candidate |
	some entry in _classified
	not entry.hidden
	count(entry.reasons) == 0
]

# a candidate whose content holds a secret is a secret whatever its name
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
excluded := [{"file": entry.candidate.file, "reason": entry.reasons[0]} |
	some entry in _classified
	not entry.hidden
	count(entry.reasons) > 0
]

# the kept candidates not in the pack yet, in rank order
_new := [candidate | some candidate in _kept; not candidate.file in _previous_set]

_max_files := input.config.pack.escalateMaxFiles if input.verb == "escalate"

_max_files := input.config.pack.maxFiles if input.verb != "escalate"

# the new candidates that enter: within the file limit, while the sizes of
# the new files up to and including this one fit the byte budget
_admitted := [candidate |
	some i, candidate in _new
	i < _max_files
	_fits(i)
]

_fits(i) if {
	sum([object.get(candidate, "size", 0) | some j, candidate in _new; j <= i]) <= input.config.pack.maxBytes
}

_fits(0) if count(_previous) == 0

# METADATA
# description: the pack's files in rank order
files := array.concat(_previous, [candidate.file | some candidate in _admitted])

# METADATA
# description: the pack decision
selection := {"files": files, "excluded": excluded}

# only a file the pack holds can make it insufficient
_unparsed := [candidate.file | some candidate in _admitted; candidate.parseError == true]

# METADATA
# scope: document
# description: ok, or pack_insufficient when a selected template could not be parsed
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
