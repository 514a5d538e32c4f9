package mcpc.rules.plan["create-scope_test"]

import data.mcpc.fixtures_test as fixtures
import data.mcpc.rules.plan["create-scope"] as rule

_remediation := concat(" ", [
	"Create files only in a folder of a contextPack file, under a new name without a leading dot; change an",
	"existing file with operation modify.",
])

_denial(message, path) := {
	"code": "PLAN_SCOPE_VIOLATION",
	"rule": "mcpc.rules.plan[\"create-scope\"]",
	"message": message,
	"path": path,
	"remediation": _remediation,
	"severity": "error",
	"suggestedVerb": "submit_execution_plan",
}

_plan(targets) := fixtures.with_input({
	"verb": "submit_execution_plan",
	"submission": {"nodes": [node |
		some i, target in targets
		node := {"nodeId": sprintf("c%d", [i]), "kind": "change", "operation": "create", "targetFile": target}
	]},
})

test_fail_outside_pack_folders if {
	r := rule.report with input as _plan(["lib/new.ts", "src/app/new.ts"])
	r == {
		_denial("change node c0 creates lib/new.ts outside the folders of the context pack's files", "args.planGraph.nodes[0].targetFile"),
		_denial("change node c1 creates src/app/new.ts outside the folders of the context pack's files", "args.planGraph.nodes[1].targetFile"),
	}
}

test_fail_existing_pack_file if {
	r := rule.report with input as _plan(["src/a.ts"])
	r == {_denial(
		"change node c0 creates src/a.ts, which exists (it is in the context pack); use operation modify",
		"args.planGraph.nodes[0].operation",
	)}
}

test_fail_not_plain if {
	r := rule.report with input as _plan(["src/../.ai/config/x.json", "src/.env", "/etc/x", "src\\x.ts"])
	r == {
		_denial("change node c0 creates src/../.ai/config/x.json, which is not a plain relative path without hidden segments", "args.planGraph.nodes[0].targetFile"),
		_denial("change node c1 creates src/.env, which is not a plain relative path without hidden segments", "args.planGraph.nodes[1].targetFile"),
		_denial("change node c2 creates /etc/x, which is not a plain relative path without hidden segments", "args.planGraph.nodes[2].targetFile"),
		_denial("change node c3 creates src\\x.ts, which is not a plain relative path without hidden segments", "args.planGraph.nodes[3].targetFile"),
	}
}

test_success_new_file_beside_pack_files if {
	r := rule.report with input as _plan(["src/b.ts", "src/sdf-alert.component.html"])
	count(r) == 0
}

test_success_modify_nodes_are_change_scope_s if {
	r := rule.report with input as fixtures.with_input({
		"verb": "submit_execution_plan",
		"submission": {"nodes": [{"nodeId": "c0", "kind": "change", "operation": "modify", "targetFile": "lib/x.ts"}]},
	})
	count(r) == 0
}
