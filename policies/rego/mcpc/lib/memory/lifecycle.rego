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

# input.memoryLifecycle and input.enforcement.memories are read by path,
# not through object.get(input, ...): a rule that reads the input whole is
# evaluated on every turn, one that reads these members only is kept
# between turns while they stay the same (internal/engine cache.go)
default _lifecycle := {}

_lifecycle := input.memoryLifecycle

_contest_ns := object.get(_lifecycle, "contestWindowHours", 48) * _hour_ns

_provisional_ns := object.get(_lifecycle, "provisionalWindowHours", 48) * _hour_ns

_auto_types := object.get(_lifecycle, "autoPromotable", ["informational", "strategy_signal"])

# METADATA
# scope: document
# description: the records as stored (input.enforcement.memories), by index
default records := []

records := input.enforcement.memories

_hour_ns := 3600000000000

_now_ns := time.parse_rfc3339_ns(input.enforcement.now)

# The lifecycle is decided on each record's few scalar facts (stored state,
# createdAt, type, scaffolded), never by handing whole records to
# functions: records.json may hold thousands, and records alike share one
# evaluation.

# which window the clock is in for a record created at created: contest,
# provisional, past, or none when createdAt (or the clock) cannot be read
_window(created, windows) := "contest" if {
	_now_ns < time.parse_rfc3339_ns(created) + windows[0]
} else := "provisional" if {
	_now_ns < (time.parse_rfc3339_ns(created) + windows[0]) + windows[1]
} else := "past" if {
	_now_ns >= (time.parse_rfc3339_ns(created) + windows[0]) + windows[1]
} else := "none"

_windows := [_contest_ns, _provisional_ns]

# only a person may put a plan_rule, or a scaffolded strategy_signal
# (friction's guess at a strategy override), in force
_person("plan_rule", _)

_person("strategy_signal", true)

# METADATA
# scope: document
# description: |
#   a record only a person may put in force: a plan_rule, or a scaffolded
#   strategy_signal (friction's guess at a strategy override)
needs_person(record) if _person(object.get(record, "enforcementType", ""), object.get(record, "scaffolded", false))

_needs_person(type, scaffolded) if {
	_person(type, scaffolded)
} else := false

_open := {"pending", "provisional"}

# the state of an open record stored as stored, its window on the clock,
# whether it needs a person and whether its type is auto-promotable: an else
# chain, so a record costs one evaluation of the first branch that holds
_state(stored, window, person, auto) := stored if {
	window in {"none", "contest"}
} else := "pending" if {
	window == "provisional"
	stored == "pending"
	person
} else := "provisional" if {
	window == "provisional"
} else := "approved" if {
	auto
} else := "expired"

# METADATA
# scope: document
# description: |
#   a record's state on the clock: pending (or the provisional a person
#   set) until its contest window ends, provisional until its provisional
#   window ends, then approved (an auto-promotable type) or expired; a
#   record that needs a person stays pending until it expires; a record
#   without a readable createdAt keeps its stored state. approved, rejected,
#   expired and retired stay: only an open record's window, type and
#   scaffolding are read (most records in force are approved, and a decision
#   reads them all)
effective_state(record) := stored if {
	stored := record.state
	not stored in _open
} else := _state(record.state, window, person, auto) if {
	window := _window(object.get(record, "createdAt", ""), _windows)
	type := object.get(record, "enforcementType", "")
	person := _needs_person(type, object.get(record, "scaffolded", false))
	auto := _auto(type, person)
}

_auto(type, false) := type in _auto_types

_auto(_, true) := false

# each record's state on the clock, by its index in records.json: complete
# rules built once (a partial object looked up by key walks every entry on
# each lookup). The records that are not open keep their state whatever the
# clock, so their part reads no clock and is kept between turns while the
# records stay the same; only the open ones are decided again as it moves.
_state_at := object.union(_settled_at, _open_at)

_settled_at := {i: record.state | # regal ignore:prefer-set-or-object-rule
	some i, record in records
	not record.state in _open
}

_open_at := {i: effective_state(records[i]) | some i in _open_indexes} # regal ignore:prefer-set-or-object-rule

# the indexes of the open records (read no clock: kept between turns)
_open_indexes := {i | # regal ignore:prefer-set-or-object-rule
	some i, record in records
	record.state in _open
}

# the indexes of the records in id order (then file order), sorted once
_ordered := [pair[1] |
	some pair in sort([[record.id, i] | some i, record in records; is_string(record.id)])
]

_reason := {
	"provisional": "the contest window ended without a rejection",
	"approved": "the provisional window ended and its type is auto-promotable",
	"expired": "the provisional window ended without an approval",
}

# METADATA
# description: the state changes the clock has made, in record id order
transitions := [change |
	some i in _ordered
	record := records[i]
	to := _state_at[i]
	to != record.state
	change := {"id": record.id, "from": record.state, "to": to, "reason": _reason[to]}
]

# an active record is in force on the clock: provisional (enforced but
# reversible) or approved, and not past an expiresAt it carries; an
# expiresAt policy cannot read (or a clock it cannot read) never applies
_in_force := {"approved", "provisional"}

# the instant each record that carries an expiresAt stops applying, by
# index (0 when policy cannot read it), read once per set of records
_expiry_at := {i: _expiry(at) | # regal ignore:prefer-set-or-object-rule
	some i, record in records
	at := object.get(record, "expiresAt", null)
	at != null
}

_expiry(at) := ns if {
	ns := time.parse_rfc3339_ns(at)
} else := 0

# the records whose expiresAt the clock has passed, or that policy (or the
# clock) cannot read, by index: only the records that carry one are
# compared with the clock
# the earliest expiry still ahead: none has lapsed, without a walk
_lapsed := set() if _ahead(_earliest_expiry)

else := {i | # regal ignore:prefer-set-or-object-rule
	some i, ns in _expiry_at
	not _ahead(ns)
}

# read no clock: kept between turns while the records stay the same
_earliest_expiry := min({ns | some ns in _expiry_at})

_ahead(ns) if ns > _now_ns

# METADATA
# description: the indexes in records of the records in force (active), in id order
active_indexes := _settled_in_force if {
	# no record open and none lapsed: the clock changes nothing
	count(_open_indexes) == 0
	count(_lapsed) == 0
} else := [i |
	some i in _ordered
	_state_at[i] in _in_force
	not i in _lapsed
]

# the records in force by their stored state, in id order (read no clock:
# kept between turns while the records stay the same)
_settled_in_force := [i |
	some i in _ordered
	records[i].state in _in_force
]

# METADATA
# description: |
#   the records in force for this turn, in id order: the one activation
#   decision (provisional is enforced but reversible, seed 002)
active := [records[i] | some i in active_indexes]

# anchors as folders: without an anchor prefix or a leading slash
_folders(anchors) := [trim_prefix(trim_prefix(a, "anchor:"), "/") |
	some a in anchors
	is_string(a)
]

# the active records' folders by index; a record without anchors is
# workspace-wide
_folders_at := {i: _folders(object.get(records[i], "domainAnchorIds", [])) | # regal ignore:prefer-set-or-object-rule
	some i in active_indexes
}

_covers_any(folders, _) if count(folders) == 0

_covers_any(folders, _) if "" in folders

_covers_any(folders, files) if {
	some folder in folders
	folder != ""
	some file in files
	startswith(file, concat("", [folder, "/"]))
}

# METADATA
# scope: document
# description: whether a record's domain anchors cover a file
covers(record, file) if _covers_any(_folders(object.get(record, "domainAnchorIds", [])), [file])

# METADATA
# description: |
#   the active memories whose domain anchors cover one of the files, as the
#   pack lists them (without the trace reference), in id order
active_for(files) := [object.union(object.remove(records[i], ["traceRef"]), {"state": _state_at[i]}) |
	some i in active_indexes
	_covers_any(_folders_at[i], files)
]

# METADATA
# description: |
#   the active few-shot memories, for the files a trace_symbol_graph result
#   reaches: Go keeps those whose folders cover one of them
few_shots := [{"id": record.id, "folders": _folders_at[i], "fewShot": record.fewShot} |
	some i in active_indexes
	record := records[i]
	record.enforcementType == "few_shot"
	is_object(record.fewShot)
]

# the instants after now at which the clock changes a record's state or
# whether it is active: its window ends and its expiresAt
_edges contains edge if {
	some record in records
	record.state in _open
	created := time.parse_rfc3339_ns(record.createdAt)
	some edge in [created + _contest_ns, (created + _contest_ns) + _provisional_ns]
	edge > _now_ns
}

_edges contains edge if {
	some record in records
	edge := time.parse_rfc3339_ns(record.expiresAt)
	edge > _now_ns
}

# METADATA
# description: |
#   until when (RFC 3339) this answer holds on a moving clock, "" when no
#   window or expiry lies ahead: Go may reuse it until then while the
#   records and the policies stay the same
default valid_until := ""

# METADATA
# description: the next edge ahead
valid_until := time.format(min(_edges)) if count(_edges) > 0

# METADATA
# description: |
#   what Go asks of the lifecycle outside a turn's decision: the clock's
#   transitions (mcpc memory expire-check), the active ids, the active
#   few-shots (injected into trace_symbol_graph results) and until when the
#   answer holds
lifecycle_summary := {
	"transitions": transitions,
	"active": [r.id | some r in active],
	"fewShots": few_shots,
	"validUntil": valid_until,
}
