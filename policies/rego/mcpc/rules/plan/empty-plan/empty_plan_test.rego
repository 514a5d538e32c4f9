package mcpc.rules.plan["empty-plan_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["empty-plan"] as rule

test_fail_no_nodes if {
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
			"nodes": [],
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
			"nodes": [],
		},
	})
	r == {{
		"code": "PLAN_GRAPH_INVALID",
		"message": "planGraph.nodes is missing, not an array or empty",
		"path": "args.planGraph.nodes",
		"remediation": "Put the plan's nodes in planGraph.nodes (a non-empty array).",
		"rule": "mcpc.rules.plan[\"empty-plan\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_nodes_not_array if {
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
			"nodes": {"a": 1},
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
			"nodes": {"a": 1},
		},
	})
	r == {{
		"code": "PLAN_GRAPH_INVALID",
		"message": "planGraph.nodes is missing, not an array or empty",
		"path": "args.planGraph.nodes",
		"remediation": "Put the plan's nodes in planGraph.nodes (a non-empty array).",
		"rule": "mcpc.rules.plan[\"empty-plan\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_success_nodes if {
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
