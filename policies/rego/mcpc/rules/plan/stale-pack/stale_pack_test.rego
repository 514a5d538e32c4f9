package mcpc.rules.plan["stale-pack_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["stale-pack"] as rule

test_fail_old_pack_hash if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"args": {"planGraph": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:old",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:old",
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
			"contextPackHash": "sha256:old",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {"mcpc": "1"},
			"repoSnapshotId": "git:old",
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
	r == {
		{
			"code": "PLAN_STALE_PACK",
			"message": "planGraph.contextPackHash is sha256:old but the server expects sha256:pack",
			"path": "args.planGraph.contextPackHash",
			"remediation": "Rebuild the plan against the current pack: copy contextPackHash, contextPackRef, repoSnapshotId and policyVersionSet from the latest planGraphSchema.envelope and re-check the plan's evidence.",
			"rule": "mcpc.rules.plan[\"stale-pack\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_STALE_PACK",
			"message": "planGraph.repoSnapshotId is git:old but the server expects git:abc",
			"path": "args.planGraph.repoSnapshotId",
			"remediation": "Rebuild the plan against the current pack: copy contextPackHash, contextPackRef, repoSnapshotId and policyVersionSet from the latest planGraphSchema.envelope and re-check the plan's evidence.",
			"rule": "mcpc.rules.plan[\"stale-pack\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_success_current_pack if {
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

test_fail_other_policy_version if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"submission": {"policyVersionSet": {"mcpc": "bogus"}},
	})
	r == {{
		"code": "PLAN_STALE_PACK",
		"message": "planGraph.policyVersionSet is {\"mcpc\": \"bogus\"} but the server expects {\"mcpc\": \"1\"}",
		"path": "args.planGraph.policyVersionSet",
		"remediation": "Rebuild the plan against the current pack: copy contextPackHash, contextPackRef, repoSnapshotId and policyVersionSet from the latest planGraphSchema.envelope and re-check the plan's evidence.",
		"rule": "mcpc.rules.plan[\"stale-pack\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}
