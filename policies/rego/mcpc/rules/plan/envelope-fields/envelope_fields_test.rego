package mcpc.rules.plan["envelope-fields_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["envelope-fields"] as rule

test_fail_missing_envelope_fields if {
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
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "planGraph is missing envelope field \"planFingerprint\"",
			"path": "args.planGraph.planFingerprint",
			"remediation": "Copy the envelope values from planGraphSchema.envelope of the initialize_work or escalate response and fill in the rest (knowledgeStrategyReasons, evidencePolicy, planFingerprint, sourceTraceRefs).",
			"rule": "mcpc.rules.plan[\"envelope-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "planGraph is missing envelope field \"sourceTraceRefs\"",
			"path": "args.planGraph.sourceTraceRefs",
			"remediation": "Copy the envelope values from planGraphSchema.envelope of the initialize_work or escalate response and fill in the rest (knowledgeStrategyReasons, evidencePolicy, planFingerprint, sourceTraceRefs).",
			"rule": "mcpc.rules.plan[\"envelope-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_success_complete_envelope if {
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
