package mcpc.rules.plan["evidence-minima_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["evidence-minima"] as rule

test_fail_no_evidence if {
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
								"source": "rumour",
								"ref": "x",
							},
						],
						"codeEvidence": [],
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
							"source": "rumour",
							"ref": "x",
						},
					],
					"codeEvidence": [],
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
	r == {
		{
			"code": "PLAN_EVIDENCE_INSUFFICIENT",
			"message": "change node change-1 has 0 code evidence entries; the evidence policy requires 1",
			"path": "args.planGraph.nodes[0].codeEvidence",
			"remediation": "Cite the requirement (prompt, Jira, Swagger, attachment, policy or memory) and the code the change rests on; with a single source, set lowEvidenceGuard, uncertaintyNote and requiresHumanReview.",
			"rule": "mcpc.rules.plan[\"evidence-minima\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
		{
			"code": "PLAN_EVIDENCE_INSUFFICIENT",
			"message": "change node change-1 has 0 distinct sources; the evidence policy requires 2 (or the guard)",
			"path": "args.planGraph.nodes[0]",
			"remediation": "Cite the requirement (prompt, Jira, Swagger, attachment, policy or memory) and the code the change rests on; with a single source, set lowEvidenceGuard, uncertaintyNote and requiresHumanReview.",
			"rule": "mcpc.rules.plan[\"evidence-minima\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
		{
			"code": "PLAN_EVIDENCE_INSUFFICIENT",
			"message": "change node change-1 has 0 requirement citations; the evidence policy requires 1",
			"path": "args.planGraph.nodes[0].citations",
			"remediation": "Cite the requirement (prompt, Jira, Swagger, attachment, policy or memory) and the code the change rests on; with a single source, set lowEvidenceGuard, uncertaintyNote and requiresHumanReview.",
			"rule": "mcpc.rules.plan[\"evidence-minima\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
		{
			"code": "PLAN_EVIDENCE_INSUFFICIENT",
			"message": "change node change-1: citation 0 needs a source among prompt, jira, swagger, attachment, policy, memory and a ref",
			"path": "args.planGraph.nodes[0].citations[0]",
			"remediation": "Cite the requirement (prompt, Jira, Swagger, attachment, policy or memory) and the code the change rests on; with a single source, set lowEvidenceGuard, uncertaintyNote and requiresHumanReview.",
			"rule": "mcpc.rules.plan[\"evidence-minima\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
	}
}

test_fail_single_source_without_guard if {
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
						"codeEvidence": [],
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
					"codeEvidence": [],
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
		"config": {
			"evidencePolicy": {
				"minCodeEvidenceSources": 0,
			},
		},
	})
	r == {
		{
			"code": "PLAN_EVIDENCE_INSUFFICIENT",
			"message": "change node change-1 has 1 distinct sources; the evidence policy requires 2 (or the guard)",
			"path": "args.planGraph.nodes[0]",
			"remediation": "Cite the requirement (prompt, Jira, Swagger, attachment, policy or memory) and the code the change rests on; with a single source, set lowEvidenceGuard, uncertaintyNote and requiresHumanReview.",
			"rule": "mcpc.rules.plan[\"evidence-minima\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
	}
}

test_success_single_source_with_guard if {
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
						"codeEvidence": [],
						"verificationHooks": [
							{
								"recipeId": "run_targeted_validation",
								"params": {
									"commandId": "unit",
								},
							},
						],
						"lowEvidenceGuard": true,
						"uncertaintyNote": "only the prompt says so",
						"requiresHumanReview": true,
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
					"codeEvidence": [],
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {
								"commandId": "unit",
							},
						},
					],
					"lowEvidenceGuard": true,
					"uncertaintyNote": "only the prompt says so",
					"requiresHumanReview": true,
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
		"config": {
			"evidencePolicy": {
				"minCodeEvidenceSources": 0,
			},
		},
	})
	count(r) == 0
}

test_fail_guard_not_allowed if {
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
						"codeEvidence": [],
						"verificationHooks": [
							{
								"recipeId": "run_targeted_validation",
								"params": {
									"commandId": "unit",
								},
							},
						],
						"lowEvidenceGuard": true,
						"uncertaintyNote": "only the prompt",
						"requiresHumanReview": true,
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
					"codeEvidence": [],
					"verificationHooks": [
						{
							"recipeId": "run_targeted_validation",
							"params": {
								"commandId": "unit",
							},
						},
					],
					"lowEvidenceGuard": true,
					"uncertaintyNote": "only the prompt",
					"requiresHumanReview": true,
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
		"config": {
			"evidencePolicy": {
				"minCodeEvidenceSources": 0,
				"allowSingleSourceWithGuard": false,
			},
		},
	})
	r == {
		{
			"code": "PLAN_EVIDENCE_INSUFFICIENT",
			"message": "change node change-1 has 1 distinct sources; the evidence policy requires 2 (or the guard)",
			"path": "args.planGraph.nodes[0]",
			"remediation": "Cite the requirement (prompt, Jira, Swagger, attachment, policy or memory) and the code the change rests on; with a single source, set lowEvidenceGuard, uncertaintyNote and requiresHumanReview.",
			"rule": "mcpc.rules.plan[\"evidence-minima\"]",
			"severity": "error",
			"suggestedVerb": "escalate",
		},
	}
}

test_success_two_distinct_sources if {
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
