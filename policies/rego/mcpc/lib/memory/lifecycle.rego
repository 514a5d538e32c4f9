# Memory lifecycle and activation: the one decision of which memory records
# are in force, read by the pack's activeMemories and memories, the memory
# lane of ranking, trace_symbol_graph's few-shots, the strategy override
# layer and plan_rule enforcement (mcpc.lib.enforcement.active_memories is
# this decision).
# Seed 002's lifecycle over the records' facts (input.enforcement.memories)
# on one clock (input.enforcement.now: MCPC_NOW when set, else the system
# clock, from Go's one clock) with the windows of config memory.*
# (input.memoryLifecycle): a pending record may be contested for
# contestWindowHours from its creation, then it is provisional for
# provisionalWindowHours; past both it expires, unless its enforcement type
# is auto-promotable, when it is approved. A record that needs a person
# (a plan_rule, or a scaffolded strategy_signal: a guess that would bind
# plans or the strategy) never leaves pending by the clock and is never
# auto-promoted, whatever config lists; past both windows it expires.
# approved, rejected, expired and retired are people's (or an earlier
# check's) decisions and stay. Go persists the transitions (mcpc memory
# expire-check) and writes the changelog.
package mcpc.lib.memory

_lifecycle := object.get(input, "memoryLifecycle", {})

_contest_hours := object.get(_lifecycle, "contestWindowHours", 48)

_provisional_hours := object.get(_lifecycle, "provisionalWindowHours", 48)

_auto_types := object.get(_lifecycle, "autoPromotable", ["informational", "strategy_signal"])

_memories := object.get(input, ["enforcement", "memories"], [])

_hour_ns := 3600000000000

_now_ns := time.parse_rfc3339_ns(input.enforcement.now)

_created_ns(record) := time.parse_rfc3339_ns(record.createdAt)

_contest_end_ns(record) := _created_ns(record) + (_contest_hours * _hour_ns)

_provisional_end_ns(record) := _contest_end_ns(record) + (_provisional_hours * _hour_ns)

# METADATA
# scope: document
# description: |
#   a record only a person may put in force: a plan_rule, or a scaffolded
#   strategy_signal (friction's guess at a strategy override)
needs_person(record) if record.enforcementType == "plan_rule"

needs_person(record) if {
	record.enforcementType == "strategy_signal"
	record.scaffolded == true
}

_auto_promotable(record) if {
	record.enforcementType in _auto_types
	not needs_person(record)
}

_settled := {"approved", "rejected", "expired", "retired"}

_in_contest(record) if _now_ns < _contest_end_ns(record)

_in_provisional(record) if {
	_now_ns >= _contest_end_ns(record)
	_now_ns < _provisional_end_ns(record)
}

_past_windows(record) if _now_ns >= _provisional_end_ns(record)

# a pending record that needs a person waits for one through both windows
_held(record) if {
	record.state == "pending"
	needs_person(record)
}

# METADATA
# scope: document
# description: |
#   a record's state on the clock: pending (or the provisional a person
#   set) until its contest window ends,
#   provisional until its provisional window ends, then approved (an
#   auto-promotable type) or expired; a record that needs a person stays
#   pending until it expires; a record without a readable createdAt keeps
#   its stored state
effective_state(record) := record.state if record.state in _settled

effective_state(record) := record.state if {
	record.state in {"pending", "provisional"}
	_in_contest(record)
}

effective_state(record) := "provisional" if {
	record.state in {"pending", "provisional"}
	_in_provisional(record)
	not _held(record)
}

effective_state(record) := "pending" if {
	_held(record)
	_in_provisional(record)
}

effective_state(record) := "approved" if {
	record.state in {"pending", "provisional"}
	_past_windows(record)
	_auto_promotable(record)
}

effective_state(record) := "expired" if {
	record.state in {"pending", "provisional"}
	_past_windows(record)
	not _auto_promotable(record)
}

effective_state(record) := record.state if {
	record.state in {"pending", "provisional"}
	not _created_ns(record)
}

_reason := {
	"provisional": "the contest window ended without a rejection",
	"approved": "the provisional window ended and its type is auto-promotable",
	"expired": "the provisional window ended without an approval",
}

# METADATA
# description: the state changes the clock has made, in record id order
transitions := [change |
	some record in _in_id_order
	to := effective_state(record)
	to != record.state
	change := {"id": record.id, "from": record.state, "to": to, "reason": _reason[to]}
]

# the records in id order (then file order), sorted once: records.json may
# hold thousands
_in_id_order := [record |
	some pair in sort([[record.id, i] | some i, record in _memories; is_string(record.id)])
	record := _memories[pair[1]]
]

# an active record is in force on the clock: provisional (enforced but
# reversible) or approved, and not past an expiresAt it carries; an
# expiresAt policy cannot read (or a clock it cannot read) never applies
_live(record) if not record.expiresAt

_live(record) if time.parse_rfc3339_ns(record.expiresAt) > _now_ns

# METADATA
# description: |
#   the records in force for this turn, in id order: the one activation
#   decision (provisional is enforced but reversible, seed 002)
active := [record |
	some record in _in_id_order
	effective_state(record) in {"approved", "provisional"}
	_live(record)
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
