package mcpc.lib.memory_test

import data.mcpc.lib.memory

# windows of 48 h each from createdAt 2026-01-01T00:00:00Z: the contest
# window ends 2026-01-03T00:00:00Z, the provisional one 2026-01-05T00:00:00Z
_lifecycle := {"contestWindowHours": 48, "provisionalWindowHours": 48, "autoPromotable": ["informational", "strategy_signal", "plan_rule"]}

_doc(now, records) := {"memoryLifecycle": _lifecycle, "enforcement": {"now": now, "memories": records}}

_record(id, type, state) := {
	"id": id, "enforcementType": type, "state": state, "createdAt": "2026-01-01T00:00:00Z",
	"domainAnchorIds": ["anchor:src/app"], "fewShot": {"instruction": "do it"},
}

_ids(list) := [r.id | some r in list]

# the clock at each window edge
_in_contest := "2026-01-02T23:59:59Z"

_contest_end := "2026-01-03T00:00:00Z"

_in_provisional := "2026-01-04T23:59:59Z"

_provisional_end := "2026-01-05T00:00:00Z"

_clocks := [_in_contest, _contest_end, _in_provisional, _provisional_end]

# [stored state, enforcement type, scaffolded, the state at each clock of _clocks]
_lifecycle_table := [
	["pending", "few_shot", false, ["pending", "provisional", "provisional", "expired"]],
	["pending", "informational", false, ["pending", "provisional", "provisional", "approved"]],
	["pending", "strategy_signal", false, ["pending", "provisional", "provisional", "approved"]],
	# a person's types: never provisional or approved by the clock, even listed as auto-promotable
	["pending", "plan_rule", false, ["pending", "pending", "pending", "expired"]],
	["pending", "strategy_signal", true, ["pending", "pending", "pending", "expired"]],
	["pending", "few_shot", true, ["pending", "provisional", "provisional", "expired"]],
	# provisional as a person set it: stays provisional through both windows
	["provisional", "few_shot", false, ["provisional", "provisional", "provisional", "expired"]],
	["provisional", "informational", false, ["provisional", "provisional", "provisional", "approved"]],
	["provisional", "plan_rule", false, ["provisional", "provisional", "provisional", "expired"]],
	# settled states never move
	["approved", "plan_rule", false, ["approved", "approved", "approved", "approved"]],
	["approved", "few_shot", true, ["approved", "approved", "approved", "approved"]],
	["rejected", "informational", false, ["rejected", "rejected", "rejected", "rejected"]],
	["expired", "few_shot", false, ["expired", "expired", "expired", "expired"]],
	["retired", "few_shot", false, ["retired", "retired", "retired", "retired"]],
]

_case_record(row) := object.union(_record("r", row[1], row[0]), {"scaffolded": row[2]})

# every state at every window edge: the effective state, the transition
# expire-check applies, and whether the record is active
# every state at every window edge: the effective state, whether the
# record is active, and the transition expire-check applies
test_success_every_state_at_every_window_edge if {
	count(_lifecycle_table) * count(_clocks) == 56
	got := [[row[0], row[1], row[2], clock, state] |
		some row in _lifecycle_table
		some clock in _clocks
		record := _case_record(row)
		state := memory.effective_state(record) with input as _doc(clock, [record])
	]
	want := [[row[0], row[1], row[2], clock, row[3][i]] |
		some row in _lifecycle_table
		some i, clock in _clocks
	]
	got == want
}

test_success_active_exactly_when_approved_or_provisional_on_the_clock if {
	got := [[row[0], row[1], row[2], clock, active] |
		some row in _lifecycle_table
		some clock in _clocks
		record := _case_record(row)
		active := count(memory.active) == 1 with input as _doc(clock, [record])
	]
	want := [[row[0], row[1], row[2], clock, row[3][i] in {"approved", "provisional"}] |
		some row in _lifecycle_table
		some i, clock in _clocks
	]
	got == want
}

test_success_transitions_are_the_state_changes if {
	got := [[row[0], row[1], row[2], clock, changes] |
		some row in _lifecycle_table
		some clock in _clocks
		record := _case_record(row)
		transitions := memory.transitions with input as _doc(clock, [record])
		changes := [object.remove(t, ["reason"]) | some t in transitions]
	]
	want := [[row[0], row[1], row[2], clock, changes] |
		some row in _lifecycle_table
		some i, clock in _clocks
		changes := [{"id": "r", "from": row[0], "to": row[3][i]} | row[3][i] != row[0]]
	]
	got == want
}

test_success_transitions_in_id_order_with_reasons if {
	records := [
		_record("few", "few_shot", "pending"), _record("info", "informational", "pending"),
		_record("rule", "plan_rule", "pending"), _record("no", "few_shot", "rejected"),
	]
	memory.transitions == [
		{"id": "few", "from": "pending", "to": "expired", "reason": "the provisional window ended without an approval"},
		{"id": "info", "from": "pending", "to": "approved", "reason": "the provisional window ended and its type is auto-promotable"},
		{"id": "rule", "from": "pending", "to": "expired", "reason": "the provisional window ended without an approval"},
	] with input as _doc(_provisional_end, records)
	memory.transitions == [
		{"id": "few", "from": "pending", "to": "provisional", "reason": "the contest window ended without a rejection"},
		{"id": "info", "from": "pending", "to": "provisional", "reason": "the contest window ended without a rejection"},
	] with input as _doc(_contest_end, records)
}

# config windows, not fixed ones: a 1 h contest window ends an hour after creation
test_success_windows_come_from_config if {
	doc := {"memoryLifecycle": {"contestWindowHours": 1, "provisionalWindowHours": 1, "autoPromotable": []}, "enforcement": {
		"now": "2026-01-01T01:00:00Z",
		"memories": [_record("few", "few_shot", "pending")],
	}}
	_ids(memory.active) == ["few"] with input as doc
	memory.effective_state(_record("info", "informational", "pending")) == "expired" with input as object.union(doc, {"enforcement": {"now": "2026-01-01T02:00:00Z"}})
}

# without memoryLifecycle the seed defaults hold (48 h, informational and strategy_signal)
test_success_default_windows if {
	doc := {"enforcement": {"now": _provisional_end, "memories": []}}
	memory.effective_state(_record("info", "informational", "pending")) == "approved" with input as doc
	memory.effective_state(_record("few", "few_shot", "pending")) == "expired" with input as doc
	memory.effective_state(_record("few", "few_shot", "pending")) == "provisional" with input as object.union(doc, {"enforcement": {"now": _contest_end}})
}

test_fail_rejected_stays_rejected_on_any_clock if {
	doc := _doc("2030-01-01T00:00:00Z", [_record("no", "few_shot", "rejected")])
	memory.active == [] with input as doc
	memory.transitions == [] with input as doc
}

test_fail_expires_at_past_is_inactive if {
	rec := object.union(_record("yes", "few_shot", "approved"), {"expiresAt": "2026-01-01T12:00:00Z"})
	memory.active == [] with input as _doc("2026-01-01T12:00:00Z", [rec])
	_ids(memory.active) == ["yes"] with input as _doc("2026-01-01T11:59:59Z", [rec])
}

test_fail_unreadable_expires_at_is_inactive if {
	rec := object.union(_record("yes", "few_shot", "approved"), {"expiresAt": "soon"})
	memory.active == [] with input as _doc("2026-01-02T00:00:00Z", [rec])
}

test_fail_unreadable_clock_applies_no_record_with_a_window if {
	rec := object.union(_record("yes", "few_shot", "approved"), {"expiresAt": "2026-01-01T12:00:00Z"})
	pending := _record("p", "few_shot", "pending")
	memory.active == [] with input as _doc("", [rec, pending])
	memory.transitions == [] with input as _doc("", [rec, pending])
}

test_success_active_for_matches_domain_anchors if {
	wide := object.union(_record("wide", "informational", "approved"), {"domainAnchorIds": []})
	other := object.union(_record("other", "few_shot", "approved"), {"domainAnchorIds": ["anchor:lib"]})
	doc := _doc(_in_contest, [_record("yes", "few_shot", "approved"), wide, other])
	_ids(memory.active_for(["src/app/a.ts", "src/app/b.ts", "README.md"])) == ["wide", "yes"] with input as doc
}

test_fail_active_for_skips_other_domains if {
	doc := _doc(_in_contest, [_record("yes", "few_shot", "approved")])
	memory.active_for(["src/application/a.ts", "lib/x.ts"]) == [] with input as doc
}

test_success_few_shots_of_active_few_shot_records if {
	records := [
		_record("few", "few_shot", "pending"), _record("info", "informational", "pending"),
		_record("yes", "few_shot", "approved"), _record("no", "few_shot", "rejected"),
	]
	memory.few_shots == [
		{"id": "few", "folders": ["src/app"], "fewShot": {"instruction": "do it"}},
		{"id": "yes", "folders": ["src/app"], "fewShot": {"instruction": "do it"}},
	] with input as _doc(_contest_end, records)
}

# a record whose createdAt policy cannot read keeps its stored state
test_success_unreadable_created_at_keeps_its_state if {
	odd := object.union(_record("odd", "few_shot", "provisional"), {"createdAt": "yesterday"})
	none := object.remove(_record("none", "few_shot", "provisional"), ["createdAt"])
	doc := _doc("2030-01-01T00:00:00Z", [odd, none])
	memory.transitions == [] with input as doc
	_ids(memory.active) == ["none", "odd"] with input as doc
}

# an anchor of the root covers every file
test_success_root_anchor_covers_every_file if {
	rec := object.union(_record("root", "informational", "approved"), {"domainAnchorIds": ["anchor:"]})
	_ids(memory.active_for(["README.md"])) == ["root"] with input as _doc(_in_contest, [rec])
}

test_success_lifecycle_summary if {
	doc := _doc(_contest_end, [_record("few", "few_shot", "pending")])
	summary := memory.lifecycle_summary with input as doc
	summary.active == ["few"]
	count(summary.transitions) == 1
	summary.fewShots == [{"id": "few", "folders": ["src/app"], "fewShot": {"instruction": "do it"}}]
	summary.validUntil == _provisional_end
}

# the answer holds until the next window end or expiresAt after now, and
# for ever when none lies ahead
test_success_valid_until_the_next_edge if {
	expiring := object.union(_record("exp", "few_shot", "approved"), {"expiresAt": "2026-01-03T12:00:00Z"})
	records := [_record("few", "few_shot", "pending"), expiring, _record("done", "few_shot", "rejected")]
	memory.valid_until == _contest_end with input as _doc(_in_contest, records)
	memory.valid_until == "2026-01-03T12:00:00Z" with input as _doc(_contest_end, records)
	memory.valid_until == _provisional_end with input as _doc("2026-01-03T12:00:00Z", records)
	memory.valid_until == "" with input as _doc(_provisional_end, records)
}

test_success_needs_person if {
	memory.needs_person({"enforcementType": "plan_rule"})
	memory.needs_person({"enforcementType": "strategy_signal", "scaffolded": true})
	not memory.needs_person({"enforcementType": "strategy_signal"})
	not memory.needs_person({"enforcementType": "few_shot", "scaffolded": true})
}
