# METADATA
# title: plan_rule
# description: |
#   The one generic rule for plan_rules (seed 002 Memory System, seed 000
#   section 14): each active rule whose condition holds for the plan
#   (fileGlobs match a change node's targetFile, strategyIds include the
#   plan's strategy, tags meet the tags the change nodes touch; an absent
#   field always holds) needs each of its requiredSteps: a node of that kind,
#   with that recipeId and commandId among its verificationHooks when given,
#   and none of its forbiddenTags (a graph MacroConstraint's) named by a
#   change node on a page that has the condition's tag, unless the node
#   migrates that tag away. An unmet rule denies with the rule's own denyCode.
# custom:
#   code: PLAN_POLICY_VIOLATION
#   remediation: >-
#     Add the steps the rule requires (its kind, with the named recipe and command in verificationHooks);
#     the pack's policies.memories names the rules in force.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["plan-rules"]

import data.mcpc.lib.enforcement
import data.mcpc.lib.plan
import data.mcpc.result

_targets := {node.targetFile | # regal ignore:prefer-set-or-object-rule
	count(enforcement.plan_rules) > 0
	some node in plan.change_nodes
	is_string(node.targetFile)
}

_plan_tags := {tag |
	some node in plan.change_nodes
	some tag in object.get(input.enforcement.fileTags, node.targetFile, [])
} | {tag |
	some tags in enforcement.node_tags
	some tag in tags
}

_holds(condition, "fileGlobs") if {
	some pattern in condition.fileGlobs
	some file in _targets
	_glob(pattern, file)
}

_holds(condition, "strategyIds") if input.envelope.knowledgeStrategyId in condition.strategyIds

_holds(condition, "tags") if {
	some tag in condition.tags
	tag in _plan_tags
}

_glob(pattern, file) if glob.match(pattern, ["/"], file)

# "/**/" also matches a single "/", as in .gitignore: src/**/*.html covers src/a.html
_glob(pattern, file) if glob.match(replace(pattern, "/**/", "/"), ["/"], file)

_applies(rule) if {
	every field in ["fileGlobs", "strategyIds", "tags"] {
		_field_holds(rule.condition, field)
	}
}

_field_holds(condition, field) if not condition[field]

_field_holds(condition, field) if _holds(condition, field)

# every [kind, recipeId, commandId] the plan offers, with null standing for
# "any": built once, so each required step is one lookup
_offered := {[kind, recipe, command] | # regal ignore:prefer-set-or-object-rule
	count(enforcement.plan_rules) > 0
	some [kind, hook] in _kind_hooks
	some recipe in {object.get(hook, "recipeId", null), null}
	some command in {object.get(hook, ["params", "commandId"], null), null}
}

# the distinct [kind, hook] pairs of the plan ({} for any node of the kind)
_kind_hooks := {[node.kind, hook] | # regal ignore:prefer-set-or-object-rule
	count(enforcement.plan_rules) > 0
	some node in plan.nodes
	some hook in array.concat(object.get(node, "verificationHooks", []), [{}])
}

_meets(step) if [step.kind, object.get(step, "recipeId", null), object.get(step, "commandId", null)] in _offered

report contains violation if {
	some rule in enforcement.plan_rules
	_applies(rule)
	some step in rule.requiredSteps
	not _meets(step)
	base := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s rule %s requires a %s step%s%s; the plan has none%s", [
			rule.source, rule.id, step.kind,
			_detail(step, "recipeId"), _detail(step, "commandId"),
			_note(rule),
		]),
		"path": "args.planGraph.nodes",
	})
	violation := object.union(base, {"code": rule.denyCode})
}

report contains violation if {
	some rule in enforcement.plan_rules
	forbidden := object.get(rule, "forbiddenTags", [])
	count(forbidden) > 0
	_applies(rule)
	some i, node in plan.change_nodes
	some tag in forbidden
	tag in enforcement.node_tags[i]
	_on_page(rule.condition, i, node)
	not _migrates_away(i, tag)
	text := "%s rule %s forbids %s on a page with %s; change node %s names it%s"
	page := concat(", ", rule.condition.tags)
	base := result.fail(rego.metadata.chain(), {
		"message": sprintf(text, [rule.source, rule.id, tag, page, node.nodeId, _note(rule)]),
		"path": sprintf("args.planGraph.nodes[%d]", [i]),
	})
	violation := object.union(base, {"code": rule.denyCode})
}

# the node's page has the condition's tag: its file uses it, or the node
# names it
_on_page(condition, i, node) if {
	some tag in condition.tags
	tag in (enforcement.node_tags[i] | {t | some t in object.get(input.enforcement.fileTags, node.targetFile, [])})
}

_migrates_away(i, tag) if {
	some migration in enforcement.migrations
	migration.index == i
	migration.tag == tag
}

_detail(step, key) := sprintf(" with %s %v", [key, step[key]]) if step[key]

_detail(step, key) := "" if not step[key]

_note(rule) := sprintf(" (%s)", [rule.message]) if rule.message != ""

_note(rule) := "" if rule.message == ""
