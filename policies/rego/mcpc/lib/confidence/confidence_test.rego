package mcpc.lib.confidence_test

import data.mcpc.fixtures_test as fixtures
import data.mcpc.lib.confidence

_plan(nodes, fields) := object.union(
	fixtures.plan_input(nodes, {}),
	{"submission": object.union_n([fixtures.envelope, {"nodes": nodes}, fields])},
)

test_success_sound_plan_continues if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts"})
	c := confidence.allowed with input as _plan([node], {"confidence": 0.9})
	c == {"score": 0.95, "outcome": "continue", "components": {"selfScore": 0.9, "validator": 1, "heuristics": 1}}
}

test_success_guarded_plan_retries if {
	node := fixtures.change_node("change-1", {
		"targetFile": "src/a.ts", "lowEvidenceGuard": true,
		"uncertaintyNote": "unsure", "requiresHumanReview": true,
	})
	c := confidence.allowed with input as _plan([node], {})
	c == {"score": 0.55, "outcome": "retry", "components": {"selfScore": 0.5, "validator": 1, "heuristics": 0}}
}

test_fail_denied_unsure_plan_escalates if {
	node := fixtures.change_node("change-1", {"editIntent": "adp-card"})
	c := confidence.denied with input as _plan([node], {"confidence": 7})
	c == {"score": 0.25, "outcome": "escalate", "components": {"selfScore": 0.5, "validator": 0, "heuristics": 0}}
}
