package mcpc.rules.plan["node-fields_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["node-fields"] as rule

test_fail_missing_node_fields if {
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
				},
			],
		},
	})
	r == {
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "node \"change-1\" (change) is missing \"atomicityBoundary\"",
			"path": "args.planGraph.nodes[0].atomicityBoundary",
			"remediation": "Add the missing fields; planGraphSchema.requiredFields lists them per node kind.",
			"rule": "mcpc.rules.plan[\"node-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "node \"change-1\" (change) is missing \"codeEvidence\"",
			"path": "args.planGraph.nodes[0].codeEvidence",
			"remediation": "Add the missing fields; planGraphSchema.requiredFields lists them per node kind.",
			"rule": "mcpc.rules.plan[\"node-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "node \"validate-1\" (validate) is missing \"successCriteria\"",
			"path": "args.planGraph.nodes[1].successCriteria",
			"remediation": "Add the missing fields; planGraphSchema.requiredFields lists them per node kind.",
			"rule": "mcpc.rules.plan[\"node-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_fail_side_effect_and_escalate if {
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
						"nodeId": "se-1",
						"kind": "side_effect",
						"dependsOn": [],
						"atomicityBoundary": "x",
						"expectedFailureSignatures": [],
						"correctionCandidateOnFail": "x",
					},
					{
						"nodeId": "esc-1",
						"kind": "escalate",
						"dependsOn": [],
						"atomicityBoundary": "x",
						"expectedFailureSignatures": [],
						"correctionCandidateOnFail": "x",
						"requestedEvidence": [],
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
					"nodeId": "se-1",
					"kind": "side_effect",
					"dependsOn": [],
					"atomicityBoundary": "x",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "x",
				},
				{
					"nodeId": "esc-1",
					"kind": "escalate",
					"dependsOn": [],
					"atomicityBoundary": "x",
					"expectedFailureSignatures": [],
					"correctionCandidateOnFail": "x",
					"requestedEvidence": [],
				},
			],
		},
	})
	r == {
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "node \"esc-1\" (escalate) is missing \"blockingReasons\"",
			"path": "args.planGraph.nodes[3].blockingReasons",
			"remediation": "Add the missing fields; planGraphSchema.requiredFields lists them per node kind.",
			"rule": "mcpc.rules.plan[\"node-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "node \"se-1\" (side_effect) is missing \"commitGateId\"",
			"path": "args.planGraph.nodes[2].commitGateId",
			"remediation": "Add the missing fields; planGraphSchema.requiredFields lists them per node kind.",
			"rule": "mcpc.rules.plan[\"node-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "node \"se-1\" (side_effect) is missing \"sideEffectPayloadRef\"",
			"path": "args.planGraph.nodes[2].sideEffectPayloadRef",
			"remediation": "Add the missing fields; planGraphSchema.requiredFields lists them per node kind.",
			"rule": "mcpc.rules.plan[\"node-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
		{
			"code": "PLAN_MISSING_REQUIRED_FIELDS",
			"message": "node \"se-1\" (side_effect) is missing \"sideEffectType\"",
			"path": "args.planGraph.nodes[2].sideEffectType",
			"remediation": "Add the missing fields; planGraphSchema.requiredFields lists them per node kind.",
			"rule": "mcpc.rules.plan[\"node-fields\"]",
			"severity": "error",
			"suggestedVerb": "submit_execution_plan",
		},
	}
}

test_success_complete_nodes if {
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
