package mcpc.rules.plan["migration-rule-status_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["migration-rule-status"] as rule

_remediation := concat("", [
	"For a candidate rule set lowEvidenceGuard true, an uncertaintyNote and requiresHumanReview true on ",
	"the node; for an unknown rule add an escalate node whose policyRefs cite the rule (or take the ",
	"low-evidence path).",
])

_guard := {"lowEvidenceGuard": true, "uncertaintyNote": "mapping not vetted yet", "requiresHumanReview": true}

_escalate(refs) := {
	"nodeId": "escalate-1", "kind": "escalate", "dependsOn": [], "atomicityBoundary": "none",
	"expectedFailureSignatures": [], "correctionCandidateOnFail": "ask", "policyRefs": refs,
}

test_fail_candidate_without_guard if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "adp-button to sdf-button", "policyRefs": ["mig-adp-button"]})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_EVIDENCE_INSUFFICIENT",
		"rule": "mcpc.rules.plan[\"migration-rule-status\"]",
		"message": "change node change-1 migrates adp-button under candidate MigrationRule mig-adp-button without the low-evidence guard",
		"path": "args.planGraph.nodes[0]",
		"remediation": _remediation,
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_candidate_guard_needs_a_note if {
	node := fixtures.change_node("change-1", object.union(_guard, {"targetFile": "src/a.ts", "editIntent": "adp-button", "uncertaintyNote": " "}))
	count(rule.report) == 1 with input as fixtures.plan_input([node], {})
}

test_fail_unknown_without_escalation if {
	node := fixtures.change_node("change-1", {"policyRefs": ["mig-adp-alert", "mig-adp-card"]})
	r := rule.report with input as fixtures.plan_input([node], {})
	r == {{
		"code": "PLAN_EVIDENCE_INSUFFICIENT",
		"rule": "mcpc.rules.plan[\"migration-rule-status\"]",
		"message": "change node change-1 migrates adp-card, whose MigrationRule mig-adp-card is unknown, with no escalate node citing it and no low-evidence guard",
		"path": "args.planGraph.nodes[0]",
		"remediation": _remediation,
		"severity": "error",
		"suggestedVerb": "escalate",
	}}
}

test_success_candidate_with_guard if {
	node := fixtures.change_node("change-1", object.union(_guard, {"targetFile": "src/a.ts", "editIntent": "adp-button"}))
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}

test_success_unknown_escalated_rest_goes_ahead if {
	node := fixtures.change_node("change-1", {"policyRefs": ["mig-adp-alert", "mig-adp-card"]})
	count(rule.report) == 0 with input as fixtures.plan_input([node, _escalate(["mig-adp-card"])], {})
}

test_success_approved_needs_nothing_more if {
	node := fixtures.change_node("change-1", {"targetFile": "src/a.ts", "editIntent": "adp-alert"})
	count(rule.report) == 0 with input as fixtures.plan_input([node], {})
}
