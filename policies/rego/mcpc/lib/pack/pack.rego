# METADATA
# title: Context pack selection
# description: |
#   On initialize_work and escalate, which of retrieval's ranked candidates
#   enter the context pack: every candidate in rank order, first occurrence
#   only, minus those matching an exclusion glob of policies/data/pack.json
#   (git internals, mcpc's state and configuration, secrets) and those holding key material.
#   escalate grows the pack monotonically:
#   the current pack files come first. The size and count limits are applied
#   here too (input.config.pack): new files enter in rank order, at most
#   maxFiles of them (escalateMaxFiles on escalate), until their sizes add up
#   past maxBytes; the top candidate always enters an empty pack. Go writes
#   exactly these files, so the decision, its record and the real pack agree.
#   A selected candidate whose template failed to
#   parse makes the pack insufficient (seed 000 gotcha 7): the work starts, but
#   submit_execution_plan stays blocked until an escalation resolves it.
package mcpc.lib.pack

import data.mcpc.lib.tables

# the exclusions a file matches; globs are lower case and match any case
# (certs/server.PEM is as secret as server.pem)
_matches(file) := [rule |
	some rule in tables.packpolicy.exclusions
	glob.match(rule.glob, ["/"], lower(file))
]

_previous := [file | some file in input.pack.files] if input.verb == "escalate"

_previous := [] if input.verb != "escalate"

_previous_set := {file | some file in _previous}

# a candidate that holds key material (input.candidates[_].keyMaterial) is a
# secret whatever its name, and left out as silently as the named ones
_kept := [candidate |
	some i, candidate in input.candidates
	not _seen_before(i, candidate.file)
	count(_matches(candidate.file)) == 0
	not candidate.keyMaterial
]

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
excluded := [{"file": candidate.file, "reason": rules[0].reason} |
	some i, candidate in input.candidates
	not _seen_before(i, candidate.file)
	rules := _matches(candidate.file)
	count(rules) > 0
	every rule in rules {
		not rule.secret
	}
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
