package mcpc.rules.plan["citation-unfetched_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["citation-unfetched"] as rule

_plan(citations) := {
	"workId": "work-1",
	"nodes": [{
		"nodeId": "change-1",
		"kind": "change",
		"targetFile": "src/a.ts",
		"citations": citations,
		"codeEvidence": [{"file": "src/a.ts"}],
	}],
}

_input(citations) := fixtures.with_input({
	"verb": "submit_execution_plan",
	"args": {"planGraph": "(see input.submission)"},
	"submission": _plan(citations),
	"requirements": {
		"fetched": {"jira": ["SHOP-42"], "swagger": ["GET /orders/{orderId}"]},
		"hasSwagger": true, "text": [], "failures": [], "trace": [],
	},
})

test_fail_unfetched_ticket if {
	r := rule.report with input as _input([
		{"source": "jira", "ref": "SHOP-42"},
		{"source": "jira", "ref": "SHOP-99"},
	])
	r == {{
		"code": "PLAN_CITATION_UNFETCHED",
		"message": "node change-1 cites jira SHOP-99, which this work did not fetch",
		"path": "args.planGraph.nodes[0].citations[1]",
		"remediation": "Cite only the tickets and operations contextPack.attachments lists (their citation field); to rely on another, start a work whose prompt or lexemes name it.",
		"rule": "mcpc.rules.plan[\"citation-unfetched\"]",
		"severity": "error",
		"suggestedVerb": "submit_execution_plan",
	}}
}

test_fail_unfetched_operation_and_missing_ref if {
	r := rule.report with input as _input([
		{"source": "swagger", "ref": "DELETE /orders/{orderId}"},
		{"source": "swagger"},
	])
	{v.message | some v in r} == {
		"node change-1 cites swagger DELETE /orders/{orderId}, which this work did not fetch",
		"node change-1 cites swagger null, which this work did not fetch",
	}
}

test_success_fetched_refs if {
	r := rule.report with input as _input([
		{"source": "jira", "ref": "SHOP-42"},
		{"source": "swagger", "ref": "GET /orders/{orderId}"},
		{"source": "prompt", "ref": "originalPrompt"},
	])
	count(r) == 0
}

test_success_no_requirement_citations if {
	r := rule.report with input as _input([{"source": "prompt", "ref": "originalPrompt"}])
	count(r) == 0
}
