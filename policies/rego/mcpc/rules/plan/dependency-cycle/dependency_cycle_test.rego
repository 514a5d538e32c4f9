package mcpc.rules.plan["dependency-cycle_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["dependency-cycle"] as rule

test_fail_cycle if {
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
						"dependsOn": [
							"validate-1",
						],
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
						"nodeId": "change-2",
						"kind": "change",
						"dependsOn": [
							"change-2",
						],
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
						"nodeId": "validate-2",
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
							"change-2",
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
					"dependsOn": [
						"validate-1",
					],
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
					"nodeId": "change-2",
					"kind": "change",
					"dependsOn": [
						"change-2",
					],
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
					"nodeId": "validate-2",
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
						"change-2",
					],
					"successCriteria": "tests pass",
				},
			],
		},
	})
	r == {
		{
			"code": "PLAN_GRAPH_INVALID",
			"message": "node \"change-1\" depends on itself through a dependency cycle",
			"path": "args.planGraph.nodes[0].dependsOn",
			"remediation": "Remove a dependsOn edge so that no node depends on itself, directly or through other nodes.",
			"rule": "mcpc.rules.plan[\"dependency-cycle\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_GRAPH_INVALID",
			"message": "node \"change-2\" depends on itself through a dependency cycle",
			"path": "args.planGraph.nodes[2].dependsOn",
			"remediation": "Remove a dependsOn edge so that no node depends on itself, directly or through other nodes.",
			"rule": "mcpc.rules.plan[\"dependency-cycle\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_GRAPH_INVALID",
			"message": "node \"validate-1\" depends on itself through a dependency cycle",
			"path": "args.planGraph.nodes[1].dependsOn",
			"remediation": "Remove a dependsOn edge so that no node depends on itself, directly or through other nodes.",
			"rule": "mcpc.rules.plan[\"dependency-cycle\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_success_acyclic if {
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
