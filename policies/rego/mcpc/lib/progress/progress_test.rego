package mcpc.lib.progress_test

import data.mcpc.lib.progress

_state(kind, status, validators, n) := {"kind": kind, "status": status, "validators": validators, "count": n}

test_success_each_kind_completes_on_its_status if {
	states := [
		_state("change", "patched", [], 2),
		_state("change", "pending", [], 1),
		_state("validate", "passed", [], 3),
		_state("validate", "failed", [], 1),
		_state("side_effect", "executed", [], 1),
		_state("side_effect", "pending", [], 1),
		_state("escalate", "resolved", [], 1),
		_state("escalate", "pending", [], 1),
	]
	progress.summary == {
		"totalNodes": 11, "completedNodes": 7, "remainingNodes": 4,
		"completeStates": [0, 2, 4, 6],
	} with input as {"nodeStates": states}
}

test_success_patched_change_waits_for_its_validations if {
	states := [
		_state("change", "patched", ["passed"], 1),
		_state("change", "patched", ["failed", "passed"], 1),
		_state("change", "patched", ["pending"], 1),
		_state("validate", "passed", ["pending"], 1),
	]
	progress.summary == {
		"totalNodes": 4, "completedNodes": 2, "remainingNodes": 2,
		"completeStates": [0, 3],
	} with input as {"nodeStates": states}
}

test_success_no_plan_no_progress if {
	progress.summary == {"totalNodes": 0, "completedNodes": 0, "remainingNodes": 0, "completeStates": []} with input as {"nodeStates": []}
}

test_success_unknown_kind_never_completes if {
	progress.counts == {"totalNodes": 1, "completedNodes": 0, "remainingNodes": 1} with input as {"nodeStates": [_state("deploy", "executed", [], 1)]}
}
