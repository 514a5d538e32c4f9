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

# the string targetFiles of the change nodes
_targets := {file | # regal ignore:prefer-set-or-object-rule
	count(enforcement.plan_rules) > 0
	some file in plan.change_targets
	is_string(file)
}

# the tags the change nodes touch: those their targetFiles use and those
# they name
_plan_tags := object.keys(enforcement.tag_targets) | enforcement.plan_named_tags

# the active plan_rules whose condition holds for the plan. The memory
# records' conditions are looked up in lib/enforcement's index of them
# (kept between turns): a record applies when each field of its condition
# leaves the field out or lists a value the plan meets
_applying contains rule if {
	some i in enforcement.plan_rule_indexes
	i in _glob_holding
	i in _strategy_holding
	i in _tag_holding
	rule := enforcement.plan_rule(i)
}

# the graph's rules are checked one by one, each field on its value alone,
# with one call per field; an absent field reads as false, and false
# always holds
_applying contains rule if {
	some rule in enforcement.graph_plan_rules
	_globs_hold(object.get(rule.condition, "fileGlobs", false))
	_strategies_hold(object.get(rule.condition, "strategyIds", false))
	_tags_hold(object.get(rule.condition, "tags", false))
}

_conditions := enforcement.plan_rule_conditions

# the indexes of the memory records whose fileGlobs, strategyIds and tags
# hold for the plan, each value the records list checked once
_glob_holding := _conditions.fileGlobs.free | {i |
	some pattern, indexes in _conditions.fileGlobs.by
	_globs_hold([pattern])
	some i in indexes
}

_strategy_holding := _conditions.strategyIds.free | {i |
	some i in _conditions.strategyIds.by[input.envelope.knowledgeStrategyId]
}

_tag_holding := _conditions.tags.free | {i |
	some tag, indexes in _conditions.tags.by
	tag in _plan_tags
	some i in indexes
}

_globs_hold(false)

_globs_hold(patterns) if {
	some pattern in patterns
	some file in _targets
	_glob(pattern, file)
}

_strategies_hold(false)

_strategies_hold(ids) if input.envelope.knowledgeStrategyId in ids

_tags_hold(false)

_tags_hold(tags) if {
	some tag in tags
	tag in _plan_tags
}

_glob(pattern, file) if glob.match(pattern, ["/"], file)

# "/**/" also matches a single "/", as in .gitignore: src/**/*.html covers src/a.html
_glob(pattern, file) if glob.match(replace(pattern, "/**/", "/"), ["/"], file)

# a step is met by a node of its kind with a hook that has its recipeId and
# commandId, null standing for "any" (the {} hook every node of the kind
# offers). A scan that stops at the first node meeting the step (the result of
# each distinct step is cached), so a plan that meets its rules pays for a
# few nodes, not all of them.
_meets(step) if {
	wanted := [step.kind, object.get(step, "recipeId", null), object.get(step, "commandId", null)]
	some node in plan.nodes
	node.kind == wanted[0]
	some hook in array.concat(object.get(node, "verificationHooks", []), [{}])
	some recipe in {object.get(hook, "recipeId", null), null}
	some command in {object.get(hook, ["params", "commandId"], null), null}
	[node.kind, recipe, command] == wanted
}

report contains violation if {
	some rule in _applying
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
	some rule in _applying
	forbidden := object.get(rule, "forbiddenTags", [])
	count(forbidden) > 0
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

# the node migrates the tag under a MigrationRule (a lookup, not a walk of
# every migration per node and tag)
_migrates_away(i, tag) if i in enforcement.migrating_nodes[tag]

_detail(step, key) := sprintf(" with %s %v", [key, step[key]]) if step[key]

_detail(step, key) := "" if not step[key]

_note(rule) := sprintf(" (%s)", [rule.message]) if rule.message != ""

_note(rule) := "" if rule.message == ""
