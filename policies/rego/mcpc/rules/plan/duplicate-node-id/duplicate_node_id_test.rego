package mcpc.rules.plan["duplicate-node-id_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["duplicate-node-id"] as rule

test_fail_duplicate if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"args": {
			"planGraph": {
				"agentId": "agent-1",
				"contextPackHash": "sha256:pack",
				"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
				"knowledgeStrategyId": "migration_adp_to_sdf",
				"policyVersionSet": {
					"mcpc": "1",
				},
				"repoSnapshotId": "git:abc",
				"runSessionId": "run-1",
				"schemaVersion": "2.0.0",
				"scopeAllowlistRef": "pack",
				"workId": "work-1",
				"worktreeRoot": "/repo",
				"knowledgeStrategyReasons": [
					{
						"reason": "adp lexeme",
						"evidenceRefs": [
							"lexeme:adp-data-table",
						],
					},
				],
				"evidencePolicy": {
					"minRequirementSources": 1,
				},
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
						"targetSymbols": [
							"A",
						],
						"whyThisFile": "holds the grid",
						"editIntent": "swap tag",
						"citations": [
							{
								"source": "prompt",
								"ref": "originalPrompt",
							},
						],
						"codeEvidence": [
							{
								"file": "src/a.ts",
								"startLine": 1,
							},
						],
						"verificationHooks": [
							{
								"recipeId": "run_targeted_validation",
								"params": {
									"commandId": "unit",
								},
							},
						],
					},
					{
						"nodeId": "validate-1",
						"kind": "validate",
						"dependsOn": [
							"change-1",
						],
						"atomicityBoundary": "suite",
						"expectedFailureSignatures": [],
						"correctionCandidateOnFail": "fix",
						"verificationHooks": [
							{
								"recipeId": "run_targeted_validation",
								"params": {
									"commandId": "unit",
								},
							},
						],
						"mapsToNodeIds": [
							"change-1",
						],
						"successCriteria": "tests pass",
					},
					{
						"nodeId": "change-1",
						"kind": "change",
						"dependsOn": [],
						"atomicityBoundary": "file",
						"expectedFailureSignatures": [],
						"correctionCandidateOnFail": "revert",
						"operation": "modify",
						"targetFile": "src/a.ts",
						"targetSymbols": [
							"A",
						],
						"whyThisFile": "holds the grid",
						"editIntent": "swap tag",
						"citations": [
							{
								"source": "prompt",
								"ref": "originalPrompt",
							},
						],
						"codeEvidence": [
							{
								"file": "src/a.ts",
								"startLine": 1,
							},
						],
						"verificationHooks": [
							{
								"recipeId": "run_targeted_validation",
								"params": {
									"commandId": "unit",
								},
							},
						],
					},
				],
			},
		},
		"submission": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {
				"mcpc": "1",
			},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [
				{
					"reason": "adp lexeme",
					"evidenceRefs": [
						"lexeme:adp-data-table",
					],
				},
			],
			"evidencePolicy": {
				"minRequirementSources": 1,
			},
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
					"targetSymbols": [
						"A",
					],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [
						{
							"source": "prompt",
							"ref": "originalPrompt",
						},
					],
					"codeEvidence": [
						{
							"file": "src/a.ts",
							"startLine": 1,
						},
					],
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {
								"commandId": "unit",
							},
						},
					],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": [
						"change-1",
					],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {
								"commandId": "unit",
							},
						},
					],
					"mapsToNodeIds": [
						"change-1",
					],
					"successCriteria": "tests pass",
				},
				{
					"nodeId": "change-1",
					"kind": "change",
					"dependsOn": [],
					"atomicityBoundary": "file",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "revert",
					"operation": "modify",
					"targetFile": "src/a.ts",
					"targetSymbols": [
						"A",
					],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [
						{
							"source": "prompt",
							"ref": "originalPrompt",
						},
					],
					"codeEvidence": [
						{
							"file": "src/a.ts",
							"startLine": 1,
						},
					],
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {
								"commandId": "unit",
							},
						},
					],
				},
			],
		},
	})
	r == {
		{
			"code": "PLAN_GRAPH_INVALID",
			"message": "nodeId \"change-1\" is used by nodes[0] and nodes[2]",
			"path": "args.planGraph.nodes[2].nodeId",
			"remediation": "Give every node its own nodeId.",
			"rule": "mcpc.rules.plan[\"duplicate-node-id\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_success_unique if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"args": {
			"planGraph": {
				"agentId": "agent-1",
				"contextPackHash": "sha256:pack",
				"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
				"knowledgeStrategyId": "migration_adp_to_sdf",
				"policyVersionSet": {
					"mcpc": "1",
				},
				"repoSnapshotId": "git:abc",
				"runSessionId": "run-1",
				"schemaVersion": "2.0.0",
				"scopeAllowlistRef": "pack",
				"workId": "work-1",
				"worktreeRoot": "/repo",
				"knowledgeStrategyReasons": [
					{
						"reason": "adp lexeme",
						"evidenceRefs": [
							"lexeme:adp-data-table",
						],
					},
				],
				"evidencePolicy": {
					"minRequirementSources": 1,
				},
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
						"targetSymbols": [
							"A",
						],
						"whyThisFile": "holds the grid",
						"editIntent": "swap tag",
						"citations": [
							{
								"source": "prompt",
								"ref": "originalPrompt",
							},
						],
						"codeEvidence": [
							{
								"file": "src/a.ts",
								"startLine": 1,
							},
						],
						"verificationHooks": [
							{
								"recipeId": "run_targeted_validation",
								"params": {
									"commandId": "unit",
								},
							},
						],
					},
					{
						"nodeId": "validate-1",
						"kind": "validate",
						"dependsOn": [
							"change-1",
						],
						"atomicityBoundary": "suite",
						"expectedFailureSignatures": [],
						"correctionCandidateOnFail": "fix",
						"verificationHooks": [
							{
								"recipeId": "run_targeted_validation",
								"params": {
									"commandId": "unit",
								},
							},
						],
						"mapsToNodeIds": [
							"change-1",
						],
						"successCriteria": "tests pass",
					},
				],
			},
		},
		"submission": {
			"agentId": "agent-1",
			"contextPackHash": "sha256:pack",
			"contextPackRef": ".ai/tmp/work/work-1/context-pack.json",
			"knowledgeStrategyId": "migration_adp_to_sdf",
			"policyVersionSet": {
				"mcpc": "1",
			},
			"repoSnapshotId": "git:abc",
			"runSessionId": "run-1",
			"schemaVersion": "2.0.0",
			"scopeAllowlistRef": "pack",
			"workId": "work-1",
			"worktreeRoot": "/repo",
			"knowledgeStrategyReasons": [
				{
					"reason": "adp lexeme",
					"evidenceRefs": [
						"lexeme:adp-data-table",
					],
				},
			],
			"evidencePolicy": {
				"minRequirementSources": 1,
			},
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
					"targetSymbols": [
						"A",
					],
					"whyThisFile": "holds the grid",
					"editIntent": "swap tag",
					"citations": [
						{
							"source": "prompt",
							"ref": "originalPrompt",
						},
					],
					"codeEvidence": [
						{
							"file": "src/a.ts",
							"startLine": 1,
						},
					],
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {
								"commandId": "unit",
							},
						},
					],
				},
				{
					"nodeId": "validate-1",
					"kind": "validate",
					"dependsOn": [
						"change-1",
					],
					"atomicityBoundary": "suite",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "fix",
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {
								"commandId": "unit",
							},
						},
					],
					"mapsToNodeIds": [
						"change-1",
					],
					"successCriteria": "tests pass",
				},
			],
		},
	})
	count(r) == 0
}
