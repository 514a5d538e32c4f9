package mcpc.lib.memory_test

import data.mcpc.lib.memory

_lifecycle(now) := {"now": now, "contestWindowHours": 48, "provisionalWindowHours": 48, "autoPromotable": ["informational", "strategy_signal", "plan_rule"]}

_doc(now, records) := {"memoryLifecycle": _lifecycle(now), "enforcement": {"memories": records}}

_record(id, type, state) := {
	"id": id, "enforcementType": type, "state": state, "createdAt": "2026-01-01T00:00:00Z",
	"domainAnchorIds": ["anchor:src/app"], "fewShot": {"instruction": "do it"},
}

_records := [
	_record("few", "few_shot", "pending"),
	_record("info", "informational", "pending"),
	_record("rule", "plan_rule", "pending"),
	_record("no", "few_shot", "rejected"),
	_record("yes", "few_shot", "approved"),
]

_ids(list) := [r.id | some r in list]

test_success_pending_is_inactive_inside_its_contest_window if {
	doc := _doc("2026-01-02T00:00:00Z", _records)
	_ids(memory.active) == ["yes"] with input as doc
	memory.transitions == [] with input as doc
}

test_success_provisional_after_the_contest_window if {
	doc := _doc("2026-01-03T00:00:01Z", _records)
	_ids(memory.active) == ["few", "info", "rule", "yes"] with input as doc
	memory.transitions == [
		{"id": "few", "from": "pending", "to": "provisional", "reason": "the contest window ended without a rejection"},
		{"id": "info", "from": "pending", "to": "provisional", "reason": "the contest window ended without a rejection"},
		{"id": "rule", "from": "pending", "to": "provisional", "reason": "the contest window ended without a rejection"},
	] with input as doc
}

# informational is auto-promoted; plan_rule never, even when config lists it
test_success_past_both_windows_auto_promotable_types_are_approved if {
	doc := _doc("2026-01-05T00:00:01Z", _records)
	_ids(memory.active) == ["info", "yes"] with input as doc
	memory.transitions == [
		{"id": "few", "from": "pending", "to": "expired", "reason": "the provisional window ended without an approval"},
		{"id": "info", "from": "pending", "to": "approved", "reason": "the provisional window ended and its type is auto-promotable"},
		{"id": "rule", "from": "pending", "to": "expired", "reason": "the provisional window ended without an approval"},
	] with input as doc
}

test_fail_rejected_stays_rejected_on_any_clock if {
	doc := _doc("2030-01-01T00:00:00Z", [_record("no", "few_shot", "rejected")])
	memory.active == [] with input as doc
	memory.transitions == [] with input as doc
}

test_fail_expires_at_past_is_inactive if {
	rec := object.union(_record("yes", "few_shot", "approved"), {"expiresAt": "2026-01-01T12:00:00Z"})
	memory.active == [] with input as _doc("2026-01-02T00:00:00Z", [rec])
}

test_fail_unreadable_expires_at_is_inactive if {
	rec := object.union(_record("yes", "few_shot", "approved"), {"expiresAt": "soon"})
	memory.active == [] with input as _doc("2026-01-02T00:00:00Z", [rec])
}

test_success_active_for_matches_domain_anchors if {
	wide := object.union(_record("wide", "informational", "approved"), {"domainAnchorIds": []})
	other := object.union(_record("other", "few_shot", "approved"), {"domainAnchorIds": ["anchor:lib"]})
	doc := _doc("2026-01-02T00:00:00Z", [_record("yes", "few_shot", "approved"), wide, other])
	_ids(memory.active_for(["src/app/a.ts", "src/app/b.ts", "README.md"])) == ["wide", "yes"] with input as doc
}

test_fail_active_for_skips_other_domains if {
	doc := _doc("2026-01-02T00:00:00Z", [_record("yes", "few_shot", "approved")])
	memory.active_for(["src/application/a.ts", "lib/x.ts"]) == [] with input as doc
}

test_success_few_shots_of_active_few_shot_records if {
	doc := _doc("2026-01-03T00:00:01Z", _records)
	memory.few_shots == [
		{"id": "few", "folders": ["src/app"], "fewShot": {"instruction": "do it"}},
		{"id": "yes", "folders": ["src/app"], "fewShot": {"instruction": "do it"}},
	] with input as doc
}

# a record whose createdAt policy cannot read keeps its stored state
test_success_unreadable_created_at_keeps_its_state if {
	rec := object.union(_record("odd", "few_shot", "provisional"), {"createdAt": "yesterday"})
	doc := _doc("2030-01-01T00:00:00Z", [rec])
	memory.transitions == [] with input as doc
	_ids(memory.active) == ["odd"] with input as doc
}

# an anchor of the root covers every file
test_success_root_anchor_covers_every_file if {
	rec := object.union(_record("root", "informational", "approved"), {"domainAnchorIds": ["anchor:"]})
	_ids(memory.active_for(["README.md"])) == ["root"] with input as _doc("2026-01-02T00:00:00Z", [rec])
}

test_success_lifecycle_summary if {
	doc := _doc("2026-01-03T00:00:01Z", [_record("few", "few_shot", "pending")])
	summary := memory.lifecycle_summary with input as doc
	summary.active == ["few"]
	count(summary.transitions) == 1
	summary.fewShots == [{"id": "few", "folders": ["src/app"], "fewShot": {"instruction": "do it"}}]
}
