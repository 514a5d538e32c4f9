package mcpc.main_test

import data.mcpc.fixtures_test as fixtures
import data.mcpc.main

_planning := [
	"read_file_lines",
	"lookup_symbol_definition",
	"trace_symbol_graph",
	"search_codebase_text",
	"write_scratch_file",
	"submit_execution_plan",
	"escalate",
	"signal_task_complete",
]

_plan_accepted := array.concat(_planning, [
	"apply_code_patch",
	"run_sandboxed_code",
	"execute_gated_side_effect",
	"run_automation_recipe",
])

_change := {
	"nodeId": "change-1", "kind": "change", "dependsOn": [], "atomicityBoundary": "file",
	"expectedFailureSignatures": [], "correctionCandidateOnFail": "revert", "operation": "modify",
	"targetFile": "src/a.ts", "targetSymbols": ["A"], "whyThisFile": "holds the grid", "editIntent": "swap tag",
	"citations": [{"source": "prompt", "ref": "originalPrompt"}], "codeEvidence": [{"file": "src/a.ts"}],
	"verificationHooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
}

_validate := {
	"nodeId": "validate-1", "kind": "validate", "dependsOn": ["change-1"], "atomicityBoundary": "suite",
	"expectedFailureSignatures": [], "correctionCandidateOnFail": "fix",
	"verificationHooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
	"mapsToNodeIds": ["change-1"], "successCriteria": "tests pass",
}

_plan(nodes) := object.union(fixtures.envelope, {
	"knowledgeStrategyReasons": [{"reason": "adp lexeme", "evidenceRefs": ["lexeme:adp-data-table"]}],
	"evidencePolicy": {"minRequirementSources": 1}, "planFingerprint": "fp-1", "sourceTraceRefs": [],
	"nodes": nodes,
})

_submit(plan_graph) := fixtures.with_input({
	"verb": "submit_execution_plan",
	"args": {"planGraph": plan_graph},
	"paths": {},
	"submission": plan_graph,
})

test_success_read_turn if {
	main.decision == {
		"allow": true,
		"state": "PLANNING",
		"nextState": "PLANNING",
		"workState": "PLANNING",
		"capabilities": _planning,
		"denials": [],
		"advisories": [],
		"obligations": {},
		"budget": _budget,
		"progress": {"totalNodes": 0, "completedNodes": 0, "remainingNodes": 0, "completeStates": []},
		"verbStage": false,
	} with input as fixtures.input_doc
}

# the fixture's budget: a granted slice of 100000, 60% of it, 20% of that per request
_budget := {
	"sliceTokens": 100000, "thresholdTokens": 60000, "sessionThresholdTokens": 300000,
	"requestMaxTokens": 12000, "chargeTokens": 30,
}

test_fail_read_before_initialize if {
	main.decision == {
		"allow": false,
		"state": "UNINITIALIZED",
		"nextState": "UNINITIALIZED",
		"workState": "UNINITIALIZED",
		"capabilities": ["initialize_work"],
		"denials": [{
			"code": "VERB_NOT_AVAILABLE",
			"rule": "mcpc.rules.gate[\"verb-not-available\"]",
			"message": "read_file_lines is not available in state UNINITIALIZED (available: initialize_work)",
			"path": "verb",
			"remediation": "Call a verb listed in capabilities for the current state; suggestedAction names one that moves the work forward.",
			"severity": "error",
		}],
		"advisories": [],
		"obligations": {},
		"budget": _budget,
		"progress": {"totalNodes": 0, "completedNodes": 0, "remainingNodes": 0, "completeStates": []},
		"verbStage": false,
		"suggestedAction": {
			"verb": "initialize_work",
			"reason": "read_file_lines is not available in state UNINITIALIZED (available: initialize_work)",
		},
	} with input as fixtures.with_input({"state": "UNINITIALIZED", "work": {"id": "", "given": false, "found": false}})
}

test_fail_pack_scope_suggests_escalate if {
	d := main.decision with input as fixtures.with_input({
		"args": {"targetFile": "src/b.ts"},
		"paths": {"targetFile": {"raw": "src/b.ts", "canonical": "src/b.ts", "problems": []}},
	})
	d.allow == false
	d.nextState == "PLANNING"
	d.denials == [{
		"code": "PACK_SCOPE_VIOLATION",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"message": "src/b.ts is not in the context pack",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"severity": "error",
	}]
	d.suggestedAction == {"verb": "escalate", "reason": "src/b.ts is not in the context pack"}
}

test_fail_over_budget_is_blocked_budget if {
	d := main.decision with input as fixtures.with_input({"agent": {"usedTokens": 59990}})
	d.allow == false
	d.state == "BLOCKED_BUDGET"
	d.nextState == "BLOCKED_BUDGET"
	d.workState == "PLANNING"
	d.capabilities == ["initialize_work", "escalate", "signal_task_complete"]
	[denial.code | some denial in d.denials] == ["BUDGET_EXCEEDED"]
	d.suggestedAction.verb == "signal_task_complete"
}

test_success_escalate_when_over_budget if {
	d := main.decision with input as fixtures.with_input({
		"verb": "escalate", "args": {"need": "the routing config"}, "paths": {},
		"agent": {"usedTokens": 59990},
	})
	d.allow == true
	d.state == "BLOCKED_BUDGET"
	d.nextState == "BLOCKED_BUDGET"
	d.workState == "PLANNING"
}

test_fail_session_over_budget_offers_no_new_work if {
	d := main.decision with input as fixtures.with_input({"session": {"usedTokens": 299990}})
	d.allow == false
	d.state == "BLOCKED_BUDGET"
	d.capabilities == ["escalate", "signal_task_complete"]
	[denial.code | some denial in d.denials] == ["BUDGET_EXCEEDED"]
	d.denials[0].path == "session.usedTokens"
}

test_fail_padded_request_denied_and_charged_its_share if {
	d := main.decision with input as fixtures.with_input({"request": {"bytes": 400000, "tokens": 100000}})
	d.allow == false
	d.state == "PLANNING"
	[denial.code | some denial in d.denials] == ["REQUEST_TOO_LARGE"]
	d.budget.chargeTokens == 12000
}

test_fail_unknown_verb_not_gated if {
	d := main.decision with input as fixtures.with_input({"verb": "list_scoped_files"})
	[denial.code | some denial in d.denials] == ["UNKNOWN_VERB"]
	d.suggestedAction.verb == "read_file_lines"
}

test_fail_gate_denial_comes_before_arguments if {
	d := main.decision with input as fixtures.with_input({"verb": "apply_code_patch", "args": {}, "paths": {}})
	[denial.code | some denial in d.denials] == ["VERB_NOT_AVAILABLE", "INVALID_ARGS", "INVALID_ARGS", "INVALID_ARGS"]
	d.suggestedAction.verb == "submit_execution_plan"
}

test_success_initialize_work if {
	d := main.decision with input as fixtures.with_input({
		"verb": "initialize_work", "state": "UNINITIALIZED",
		"work": {"id": "", "given": false, "found": false},
		"args": {"lexemes": ["adp-data-table"]}, "paths": {},
		"pack": {"ref": "", "hash": "", "files": []},
		"candidates": [
			{"file": "src/a.ts", "score": 3, "lanes": ["lexical"], "parseError": false, "secretFindings": []},
			{"file": ".env", "score": 2, "lanes": ["lexical"], "parseError": false, "secretFindings": []},
			{"file": "src/a.html", "score": 1, "lanes": ["lexical"], "parseError": false, "secretFindings": []},
		],
	})
	d.allow == true
	d.nextState == "PLANNING"
	d.workState == "PLANNING"
	d.capabilities == _planning
	d.pack == {"files": ["src/a.ts", "src/a.html"], "excluded": []} # .env is left out, and not named
	d.outcome == "ok"
	not d.packInsufficiency
	d.strategy.strategyId == "migration_adp_to_sdf"
}

test_fail_invalid_initialize_work_builds_no_pack if {
	d := main.decision with input as fixtures.with_input({
		"verb": "initialize_work", "state": "UNINITIALIZED",
		"work": {"id": "", "given": false, "found": false},
		"args": {"lexemes": ["adp-data-table"]}, "paths": {},
		"pack": {"ref": "", "hash": "", "files": []},
		"request": {"decoded": true, "tokens": 10, "errors": [{"path": "/args/lexemes", "message": "maxItems: got 300000, want 200"}]},
		"candidates": [{"file": "src/a.ts", "score": 3, "lanes": ["lexical"], "parseError": false, "secretFindings": []}],
	})
	d.allow == false
	[v.code | some v in d.denials] == ["INVALID_ARGS"]
	not d.strategy
	not d.pack
}

test_success_initialize_work_with_unparsed_template if {
	d := main.decision with input as fixtures.with_input({
		"verb": "initialize_work", "state": "UNINITIALIZED",
		"work": {"id": "", "given": false, "found": false}, "args": {}, "paths": {},
		"candidates": [{"file": "src/a.html", "score": 1, "lanes": ["lexical"], "parseError": true, "secretFindings": []}],
	})
	d.allow == true
	d.outcome == "pack_insufficient"
	d.packInsufficiency.blockedCommands == ["submit_execution_plan"]
	d.packInsufficiency.missingAnchors[0].requiredBy == "src/a.html"
}

test_success_search_scope_is_the_files_named if {
	d := main.decision with input as fixtures.with_input({
		"verb": "search_codebase_text", "paths": {},
		"args": {"pattern": "adp-", "files": ["src/a.html", "src/a.html"]},
	})
	d.allow == true
	d.obligations == {"searchScope": ["src/a.html"]}
}

test_success_search_has_search_scope if {
	d := main.decision with input as fixtures.with_input({"verb": "search_codebase_text", "args": {"pattern": "adp-"}, "paths": {}})
	d.allow == true
	d.obligations == {"searchScope": ["src/a.ts", "src/a.html"]}
}

test_success_submit_plan if {
	d := main.decision with input as _submit(_plan([_change, _validate]))
	d.allow == true
	d.denials == []
	d.nextState == "PLAN_ACCEPTED"
	d.workState == "PLAN_ACCEPTED"
	d.capabilities == _plan_accepted
}

test_fail_submit_plan_reports_every_reason if {
	d := main.decision with input as _submit(object.union(
		_plan([object.union(_change, {"targetFile": "src/b.ts", "dependsOn": ["ghost"]})]),
		{"contextPackHash": "sha256:old"},
	))
	d.allow == false
	d.nextState == "PLANNING"
	{denial.code | some denial in d.denials} == {
		"PLAN_GRAPH_INVALID", "PLAN_SCOPE_VIOLATION",
		"PLAN_STALE_PACK", "PLAN_VERIFICATION_WEAK",
	}
	count(d.denials) == 4
}

test_fail_submit_while_pack_insufficient if {
	d := main.decision with input as object.union(_submit(_plan([_change, _validate])), {"packInsufficient": true})
	[denial.code | some denial in d.denials] == ["PACK_INSUFFICIENT"]
	d.suggestedAction.verb == "escalate"
}

test_success_read_turn_ignores_plan_rules if {
	d := main.decision with input as fixtures.with_input({"submission": {"nodes": "not a plan"}, "packInsufficient": true})
	d.allow == true
}

test_fail_complete_with_nodes_remaining if {
	d := main.decision with input as fixtures.with_input({
		"verb": "signal_task_complete", "state": "PLAN_ACCEPTED", "args": {}, "paths": {},
		"plan": {"accepted": true, "started": true, "nodes": {}},
		"nodeStates": [
			{"kind": "change", "status": "patched", "validators": ["passed"], "count": 1},
			{"kind": "validate", "status": "failed", "validators": [], "count": 1},
		],
	})
	d.allow == false
	d.nextState == "PLAN_ACCEPTED"
	d.denials[0].code == "WORK_INCOMPLETE"
	d.denials[0].message == "1 of 2 plan nodes remain (1 completed)"
}

test_success_complete_enters_completed if {
	d := main.decision with input as fixtures.with_input({
		"verb": "signal_task_complete", "state": "PLAN_ACCEPTED", "args": {}, "paths": {},
		"plan": {"accepted": true, "started": true, "nodes": {}},
		"nodeStates": [
			{"kind": "change", "status": "patched", "validators": ["passed"], "count": 1},
			{"kind": "validate", "status": "passed", "validators": [], "count": 1},
		],
	})
	d.allow == true
	d.nextState == "COMPLETED"
	d.workState == "COMPLETED"
	d.capabilities == ["signal_task_complete"]
}

test_success_failed_stays_failed if {
	d := main.decision with input as fixtures.with_input({
		"verb": "signal_task_complete", "state": "FAILED", "args": {}, "paths": {},
		"agent": {"usedTokens": 99999},
	})
	d.allow == true
	d.state == "FAILED"
	d.nextState == "FAILED"
	d.capabilities == ["signal_task_complete"]
}

test_fail_work_not_found if {
	d := main.decision with input as fixtures.with_input({"state": "UNINITIALIZED", "work": {"id": "work-zz", "given": true, "found": false}})
	[denial.code | some denial in d.denials] == ["WORK_NOT_FOUND"]
	d.suggestedAction == {"verb": "initialize_work", "reason": "work \"work-zz\" does not exist"}
}

# quiet turns: a read, a search with its scope obligation, a read once the plan
# is accepted (BLOCKED_BUDGET offers no quiet verb: each moves or returns a pack)
_quiet_inputs := [
	fixtures.input_doc,
	fixtures.with_input({"verb": "search_codebase_text", "args": {"pattern": "adp-"}, "paths": {}}),
	fixtures.with_input({"state": "PLAN_ACCEPTED"}),
]

test_success_quiet_turns_decide_like_the_base if {
	every doc in _quiet_inputs {
		main._quiet with input as doc
		main.decision == main._base with input as doc
	}
}

_accepted_patch(overrides) := fixtures.with_input(object.union(
	{
		"stage": "request",
		"verb": "apply_code_patch",
		"state": "PLAN_ACCEPTED",
		"plan": {"accepted": true, "started": false, "nodes": {"change-1": object.union(_change, {"status": "pending"})}},
		"args": {"targetFile": "src/a.ts", "planNodeId": "change-1", "edits": []},
		"reads": {"src/a.ts": "sha256:aaa"},
	},
	overrides,
))

test_success_stage1_read_turn_is_final if {
	s := main.stage1 with input as object.union(fixtures.input_doc, {"stage": "request"})
	s.allow == true
	s.verbStage == false
	s.denials == []
}

test_success_stage1_defers_the_verb_rules if {
	# the dry run facts say the patch would not apply: only the verb stage knows
	doc := _accepted_patch({"patch": {"applicable": false, "edits": 1, "problems": [{"path": "args.edits[0]", "message": "find text does not occur in the file"}]}})
	s := main.stage1 with input as doc
	s.allow == true
	s.verbStage == true
	d := main.decision with input as object.union(doc, {"stage": "verb"})
	d.allow == false
	[denial.code | some denial in d.denials] == ["EXEC_PATCH_INAPPLICABLE"]
}

test_fail_stage1_refuses_a_target_outside_the_pack if {
	s := main.stage1 with input as _accepted_patch({
		"args": {"targetFile": ".env", "planNodeId": "change-1", "edits": []},
		"paths": {"targetFile": {
			"raw": ".env", "canonical": ".env", "valid": true, "problems": [],
			"exists": false, "regular": false, "dir": false, "size": 0, "links": 0,
		}},
	})
	s.allow == false
	s.verbStage == false
	s.denials == [{
		"code": "PACK_SCOPE_VIOLATION",
		"rule": "mcpc.rules.scope[\"pack-scope\"]",
		"message": ".env is not in the context pack",
		"path": "args.targetFile",
		"remediation": "Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the controller can add it to the pack.",
		"severity": "error",
	}]
}

test_fail_execution_failure_denies_the_turn if {
	doc := object.union(fixtures.input_doc, {"stage": "request", "execution": {"failures": [{
		"reason": "io_error", "path": "args.targetFile",
		"message": "the file could not be read",
	}]}})
	s := main.stage1 with input as doc
	s.allow == false
	s.nextState == "PLANNING"
	[denial.code | some denial in s.denials] == ["EXEC_FAILED"]
}

test_success_stage1_plan_turn_asks_for_the_verb_stage if {
	s := main.stage1 with input as fixtures.with_input({
		"stage": "request",
		"verb": "submit_execution_plan",
		"args": {"planGraph": "(see input.submission)"},
		"paths": {},
		"submission": {},
	})
	s.allow == true
	s.verbStage == true
	s.nextState == "PLAN_ACCEPTED"
}
