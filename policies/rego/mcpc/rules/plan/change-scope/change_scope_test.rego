package mcpc.rules.plan["change-scope_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["change-scope"] as rule

test_fail_outside_pack if {
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
					"targetFile": "src/b.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [
						{"file": "src/a.ts"},
						{"file": "lib/c.ts"},
					],
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
					"targetFile": "src/b.ts",
					"targetSymbols": ["A"],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [{
						"source": "prompt",
						"ref": "originalPrompt",
					}],
					"codeEvidence": [
						{"file": "src/a.ts"},
						{"file": "lib/c.ts"},
					],
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
	r == {
		{
			"code": "PLAN_SCOPE_VIOLATION",
			"message": "change node change-1 cites code evidence from lib/c.ts, which is not in the context pack",
			"path": "args.planGraph.nodes[0].codeEvidence[1].file",
			"remediation": "Target and cite only files listed in contextPack.files; escalate to add a file to the pack first.",
			"rule": "mcpc.rules.plan[\"change-scope\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
		{
			"code": "PLAN_SCOPE_VIOLATION",
			"message": "change node change-1 targets src/b.ts, which is not in the context pack",
			"path": "args.planGraph.nodes[0].targetFile",
			"remediation": "Target and cite only files listed in contextPack.files; escalate to add a file to the pack first.",
			"rule": "mcpc.rules.plan[\"change-scope\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
	}
}

test_success_inside_pack if {
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

test_success_create_node_targets_a_new_file if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"submission": {"nodes": [{
			"nodeId": "c0", "kind": "change", "operation": "create",
			"targetFile": "src/new.ts", "codeEvidence": [{"file": "src/a.ts"}],
		}]},
	})
	count(r) == 0
}
