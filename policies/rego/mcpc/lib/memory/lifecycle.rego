# Memory lifecycle and activation.
# Seed 002's lifecycle over the records' facts (input.enforcement.memories)
# on one clock (input.memoryLifecycle.now, MCPC_NOW when set): a pending
# record may be contested for contestWindowHours from its creation, then it
# is provisional for provisionalWindowHours; past both it expires, unless its
# enforcement type is auto-promotable, when it is approved. plan_rule is
# never auto-promoted, whatever config lists. approved, rejected, expired
# and retired are people's (or an earlier check's) decisions and stay.
# Which memories are active for a turn follows from the state this decides;
# Go persists the transitions (mcpc memory expire-check) and writes the
# changelog.
package mcpc.lib.memory

_lifecycle := input.memoryLifecycle

_hour_ns := 3600000000000

_now_ns := time.parse_rfc3339_ns(_lifecycle.now)

_contest_end_ns(record) := time.parse_rfc3339_ns(record.createdAt) + (_lifecycle.contestWindowHours * _hour_ns)

_provisional_end_ns(record) := _contest_end_ns(record) + (_lifecycle.provisionalWindowHours * _hour_ns)

_auto_promotable(record) if {
	record.enforcementType in _lifecycle.autoPromotable
	record.enforcementType != "plan_rule"
}

_settled := {"approved", "rejected", "expired", "retired"}

# METADATA
# scope: document
# description: |
#   a record's state on the clock: pending until its contest window ends,
#   provisional until its provisional window ends, then approved (an
#   auto-promotable type) or expired; a record without a readable createdAt
#   keeps its stored state
effective_state(record) := record.state if record.state in _settled

effective_state(record) := "pending" if {
	record.state == "pending"
	_now_ns < _contest_end_ns(record)
}

effective_state(record) := "provisional" if {
	record.state in {"pending", "provisional"}
	_now_ns >= _contest_end_ns(record)
	_now_ns < _provisional_end_ns(record)
}

effective_state(record) := "approved" if {
	record.state in {"pending", "provisional"}
	_now_ns >= _provisional_end_ns(record)
	_auto_promotable(record)
}

effective_state(record) := "expired" if {
	record.state in {"pending", "provisional"}
	_now_ns >= _provisional_end_ns(record)
	not _auto_promotable(record)
}

effective_state(record) := record.state if {
	record.state in {"pending", "provisional"}
	not time.parse_rfc3339_ns(record.createdAt)
}

_reason := {
	"provisional": "the contest window ended without a rejection",
	"approved": "the provisional window ended and its type is auto-promotable",
	"expired": "the provisional window ended without an approval",
}

# METADATA
# description: the state changes the clock has made, in record id order
transitions := [change |
	some id in sort([r.id | some r in input.enforcement.memories])
	some record in input.enforcement.memories
	record.id == id
	to := effective_state(record)
	to != record.state
	change := {"id": id, "from": record.state, "to": to, "reason": _reason[to]}
]

# an active record is in force on the clock: provisional (enforced but
# reversible) or approved, and not past an expiresAt it carries
_expired_at(record) if time.parse_rfc3339_ns(record.expiresAt) <= _now_ns

_expired_at(record) if {
	record.expiresAt
	not time.parse_rfc3339_ns(record.expiresAt)
}

# METADATA
# description: the records active for this turn, in id order
active := [record |
	some id in sort([r.id | some r in input.enforcement.memories])
	some record in input.enforcement.memories
	record.id == id
	effective_state(record) in {"approved", "provisional"}
	not _expired_at(record)
]

# a record's anchors as folders; a record without anchors is workspace-wide
_folders(record) := [trim_prefix(trim_prefix(a, "anchor:"), "/") |
	some a in object.get(record, "domainAnchorIds", [])
	is_string(a)
]

# METADATA
# scope: document
# description: whether a record's domain anchors cover a file
covers(record, _) if count(_folders(record)) == 0

covers(record, file) if {
	some folder in _folders(record)
	folder != ""
	startswith(file, concat("", [folder, "/"]))
}

covers(record, _) if "" in _folders(record)

# METADATA
# description: |
#   the active memories whose domain anchors cover one of the files, as the
#   pack lists them (without the trace reference)
active_for(files) := [object.union(object.remove(record, ["traceRef"]), {"state": effective_state(record)}) |
	some record in active
	some file in files
	covers(record, file)
	not _covered_earlier(record, file, files)
]

_covered_earlier(record, file, files) if {
	some i, f in files
	f == file
	some j, g in files
	j < i
	covers(record, g)
}

# METADATA
# description: |
#   the active few-shot memories, for the files a trace_symbol_graph result
#   reaches: Go keeps those whose folders cover one of them
few_shots := [{"id": record.id, "folders": _folders(record), "fewShot": record.fewShot} |
	some record in active
	record.enforcementType == "few_shot"
	is_object(record.fewShot)
]

# METADATA
# description: |
#   what Go asks of the lifecycle outside a turn's decision: the clock's
#   transitions (mcpc memory expire-check), the active ids, and the active
#   few-shots (injected into trace_symbol_graph results)
lifecycle_summary := {
	"transitions": transitions,
	"active": [r.id | some r in active],
	"fewShots": few_shots,
}
