package mcpc.rules.plan["weak-verification_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["weak-verification"] as rule

test_fail_unmapped_change_and_bad_map if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"args": {"planGraph": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [{
				"reason": "adp lexeme",
				"evidenceRefs": ["lexeme:adp-data-table"],
			}],
			"evidencePolicy": {"minRequirementSources": 1},
			"planFingerprint": "fp-1",
			"sourceTraceRefs": [],
			"nodes": [
				{
					"nodeId": "change-1",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{
						"file": "src/a.ts",
						"startLine": 1,
					}],
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
				},
				{
					"nodeId": "change-2",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.html",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{"file": "src/a.html"}],
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": ["change-1"],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
					"mapsToNodeIds": [
						"change-1",
						"ghost",
						"validate-1",
					],
					"successCriteria": "tests pass",
				},
			],
		}},
		"submission": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [{
				"reason": "adp lexeme",
				"evidenceRefs": ["lexeme:adp-data-table"],
			}],
			"evidencePolicy": {"minRequirementSources": 1},
			"planFingerprint": "fp-1",
			"sourceTraceRefs": [],
			"nodes": [
				{
					"nodeId": "change-1",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{
						"file": "src/a.ts",
						"startLine": 1,
					}],
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
				},
				{
					"nodeId": "change-2",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.html",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{"file": "src/a.html"}],
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": ["change-1"],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
					"mapsToNodeIds": [
						"change-1",
						"ghost",
						"validate-1",
					],
					"successCriteria": "tests pass",
				},
			],
		},
	})
	r == {
		{
			"code": "PLAN_VERIFICATION_WEAK",
			"message": "change node \"change-2\" is not mapped by any validate node",
			"path": "args.planGraph.nodes[1].nodeId",
			"remediation": "Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.",
			"rule": "mcpc.rules.plan[\"weak-verification\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_VERIFICATION_WEAK",
			"message": "validate node validate-1 maps to ghost, which is not a change node of this plan",
			"path": "args.planGraph.nodes[2].mapsToNodeIds[1]",
			"remediation": "Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.",
			"rule": "mcpc.rules.plan[\"weak-verification\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_VERIFICATION_WEAK",
			"message": "validate node validate-1 maps to validate-1, which is not a change node of this plan",
			"path": "args.planGraph.nodes[2].mapsToNodeIds[2]",
			"remediation": "Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.",
			"rule": "mcpc.rules.plan[\"weak-verification\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_fail_unconfigured_command if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"args": {"planGraph": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [{
				"reason": "adp lexeme",
				"evidenceRefs": ["lexeme:adp-data-table"],
			}],
			"evidencePolicy": {"minRequirementSources": 1},
			"planFingerprint": "fp-1",
			"sourceTraceRefs": [],
			"nodes": [
				{
					"nodeId": "change-1",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{
						"file": "src/a.ts",
						"startLine": 1,
					}],
					"verificationHooks": [{
						"recipeId": "run_shell",
						"params": {},
					}],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": ["change-1"],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "rm-rf"},
					}],
					"mapsToNodeIds": ["change-1"],
					"successCriteria": "tests pass",
				},
			],
		}},
		"submission": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [{
				"reason": "adp lexeme",
				"evidenceRefs": ["lexeme:adp-data-table"],
			}],
			"evidencePolicy": {"minRequirementSources": 1},
			"planFingerprint": "fp-1",
			"sourceTraceRefs": [],
			"nodes": [
				{
					"nodeId": "change-1",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{
						"file": "src/a.ts",
						"startLine": 1,
					}],
					"verificationHooks": [{
						"recipeId": "run_shell",
						"params": {},
					}],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": ["change-1"],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "rm-rf"},
					}],
					"mapsToNodeIds": ["change-1"],
					"successCriteria": "tests pass",
				},
			],
		},
	})
	r == {
		{
			"code": "PLAN_VERIFICATION_WEAK",
			"message": "node change-1: verification hook recipe run_shell is not one of replace_lexeme_in_file, run_targeted_validation",
			"path": "args.planGraph.nodes[0].verificationHooks[0].recipeId",
			"remediation": "Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.",
			"rule": "mcpc.rules.plan[\"weak-verification\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_VERIFICATION_WEAK",
			"message": "node validate-1: validation command rm-rf is not configured (configured: unit, lint)",
			"path": "args.planGraph.nodes[1].verificationHooks[0].params.commandId",
			"remediation": "Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.",
			"rule": "mcpc.rules.plan[\"weak-verification\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_success_every_change_validated if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"args": {"planGraph": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [{
				"reason": "adp lexeme",
				"evidenceRefs": ["lexeme:adp-data-table"],
			}],
			"evidencePolicy": {"minRequirementSources": 1},
			"planFingerprint": "fp-1",
			"sourceTraceRefs": [],
			"nodes": [
				{
					"nodeId": "change-1",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{
						"file": "src/a.ts",
						"startLine": 1,
					}],
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": ["change-1"],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
					"mapsToNodeIds": ["change-1"],
					"successCriteria": "tests pass",
				},
			],
		}},
		"submission": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [{
				"reason": "adp lexeme",
				"evidenceRefs": ["lexeme:adp-data-table"],
			}],
			"evidencePolicy": {"minRequirementSources": 1},
			"planFingerprint": "fp-1",
			"sourceTraceRefs": [],
			"nodes": [
				{
					"nodeId": "change-1",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [{
						"file": "src/a.ts",
						"startLine": 1,
					}],
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": ["change-1"],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [{
						"recipeId": "run_targeted_validation",
						"params": {"commandId": "unit"},
					}],
					"mapsToNodeIds": ["change-1"],
					"successCriteria": "tests pass",
				},
			],
		},
	})
	count(r) == 0
}

_covers_input(command, covers) := fixtures.with_input({
	"verb": "submit_execution_plan",
	"config": {"validationCommands": ["templates", "unit"], "validationCovers": covers, "evidencePolicy": {}},
	"submission": {"nodes": [
		{"nodeId": "change-1", "kind": "change", "targetFile": "src/a.ts"},
		{
			"nodeId": "validate-1", "kind": "validate", "mapsToNodeIds": ["change-1"],
			"verificationHooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": command}}],
		},
	]},
})

test_fail_change_not_covered_by_its_validation if {
	r := rule.report with input as _covers_input("templates", {"templates": ["**/*.html"]})
	r == {{
		"code": "PLAN_VERIFICATION_WEAK",
		"message": "change node \"change-1\": no validation mapped to it covers src/a.ts (its commands: templates)",
		"path": "args.planGraph.nodes[0].targetFile",
		"remediation": "Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.",
		"rule": "mcpc.rules.plan[\"weak-verification\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_change_covered if {
	count(rule.report) == 0 with input as _covers_input("unit", {"templates": ["**/*.html"], "unit": ["src/**"]})
}

# Go's validate nodes by recipe (aggregates recipeMapped) decide as the walk
# of the validate nodes does: covered by a targeted validation, or not
test_success_recipe_facts_decide_as_the_walk if {
	covers := {"unit": ["src/**"]}
	without := _covers_input("unit", covers)
	facts := {"aggregates": {
		"kindIndexes": {"change": [0], "validate": [1]}, "changeIds": ["change-1"], "mapped": ["change-1"],
		"changeTargets": ["src/a.ts"], "hooks": [{"recipeId": "run_targeted_validation", "params": {"commandId": "unit"}}],
		"recipeMapped": {"run_targeted_validation": ["change-1"]},
	}}
	count(rule.report) == 0 with input as object.union(without, {"submissionFacts": facts})
	elsewhere := json.patch(facts, [{"op": "replace", "path": "/aggregates/recipeMapped", "value": {"other": ["change-1"]}}])
	count(rule.report) == 1 with input as object.union(without, {"submissionFacts": elsewhere})
}

test_success_command_without_covers_covers_all if {
	count(rule.report) == 0 with input as _covers_input("unit", {"templates": ["**/*.html"]})
}
