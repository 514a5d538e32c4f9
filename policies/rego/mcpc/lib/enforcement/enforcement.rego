# METADATA
# title: Enforcement bundle
# description: |
#   Seed 000 section 14's enforcement bundle as policy reads it. Go gathers
#   input.enforcement (graph MigrationRules, component contracts, prose
#   policies with their grounding, the tags each gathered file uses, the
#   memory records as stored, the clock); this package decides what they
#   mean: which memories are active, which prose policies are enforceable,
#   which MigrationRule each change node migrates under, and the plan_rules
#   (memory plan_rules and graph policy rules in one shape) the plan must
#   meet. The plan rules of mcpc.rules.plan read only these views.
package mcpc.lib.enforcement

import data.mcpc.lib.memory
import data.mcpc.lib.plan
import data.mcpc.lib.tables

# the strategy a plan follows: its envelope's, as the server expects it
_strategy := object.get(input.envelope, "knowledgeStrategyId", "")

_migration_strategy if _strategy == "migration_adp_to_sdf"

# METADATA
# description: |
#   the memory records in force: mcpc.lib.memory's one activation decision
#   (approved, or provisional: enforced but reversible, seed 002; on the
#   clock input.enforcement.now with config's windows; never a plan_rule no
#   person approved or made provisional; not past expiresAt)
active_memories contains record if some record in memory.active

# METADATA
# scope: document
# description: memory records that carry a plan_rule, in the one plan_rule shape, and the graph's
plan_rules contains rule if {
	some i in plan_rule_indexes
	rule := _plan_rule_at[i]
}

plan_rules contains rule if some rule in graph_plan_rules

# METADATA
# description: the indexes (in the records) of the memory records in force that carry a plan_rule
plan_rule_indexes := {i | some i in memory.active_indexes; _plan_rule_at[i]} # regal ignore:prefer-set-or-object-rule

# METADATA
# description: the plan_rule of the record at index i (plan_rule_indexes)
plan_rule(i) := _plan_rule_at[i]

# METADATA
# description: |
#   the graph's MacroConstraints ("if a page contains X, do not add Y", seed
#   000 section 10) in the same plan_rule shape (seed 000 section 14: graph
#   policies are converted, never persisted as memories): the condition is
#   the page tag, and forbiddenTags are what a change node on such a page
#   may not name, unless it migrates that tag away
graph_plan_rules contains rule if {
	some constraint in input.enforcement.macroConstraints
	rule := {
		"id": constraint.id,
		"source": "graph",
		"condition": {"tags": [constraint.ifContains]},
		"requiredSteps": [],
		"forbiddenTags": constraint.forbid,
		"denyCode": "PLAN_POLICY_VIOLATION",
		"message": object.get(constraint, "reason", ""),
	}
}

# every plan_rule record's rule, by its index in the records: it reads no
# clock, so it is built once while the records stay the same (the engine
# keeps it between turns), and the clock only picks the ones in force
_plan_rule_at := {i: rule | # regal ignore:prefer-set-or-object-rule
	some i, record in memory.records
	record.enforcementType == "plan_rule"
	rule := {
		"id": record.id,
		"source": "memory",
		"condition": object.get(record.planRule, "condition", {}),
		"requiredSteps": record.planRule.requiredSteps,
		"denyCode": record.planRule.denyCode,
		"message": object.get(record.planRule, "message", ""),
	}
}

# METADATA
# description: |
#   the plan_rule records' conditions by field (fileGlobs, strategyIds,
#   tags): free, the indexes of the records whose condition leaves the field
#   out (it always holds); by, each value the field lists to the indexes of
#   the records that list it (a field that lists nothing never holds). Like
#   _plan_rule_at it reads no clock, so the engine keeps it between turns
#   while the records stay the same; the clock only picks the records in
#   force (plan_rule_indexes), and a plan decision looks up the values it
#   meets instead of checking every record's condition.
plan_rule_conditions := {field: {"free": free, "by": by} | # regal ignore:prefer-set-or-object-rule
	some field in ["fileGlobs", "strategyIds", "tags"]
	free := {i | some i, rule in _plan_rule_at; object.get(rule.condition, field, false) == false}
	by := {value: indexes |
		some value in {value | some rule in _plan_rule_at; some value in object.get(rule.condition, field, false)}
		indexes := {i | some i, rule in _plan_rule_at; value in object.get(rule.condition, field, false)}
	}
}

# METADATA
# description: |
#   strategy_signal memories as strategy signals (the override layer of seed
#   000 section 13), in record id order so the outcome does not depend on
#   the file's order
memory_strategy_signals := [signal |
	some record in memory.active # in id order
	record.enforcementType == "strategy_signal"
	signal := object.union(record.strategySignal, {"source": sprintf("memory:%s", [record.id])})
]

# METADATA
# description: |
#   the MigrationRules in force: the graph's (input.enforcement), then those
#   a domain bundle ships as data (data.mcpcdomain.<domain>.migrationRules,
#   e.g. bundles/adp-to-sdf) for tags the graph has no rule for: the
#   repository's own graph wins over a team's defaults
migration_rules := array.concat(input.enforcement.migrationRules, [rule |
	some rule in _domain_table("migrationRules")
	not rule.fromTag in {r.fromTag | some r in input.enforcement.migrationRules}
])

# METADATA
# description: |
#   the component contracts in force: the graph's, then a domain bundle's
#   (data.mcpcdomain.<domain>.contracts) for tags the graph does not declare
component_contracts := array.concat(input.enforcement.contracts, [contract |
	some contract in _domain_table("contracts")
	not contract.tag in {c.tag | some c in input.enforcement.contracts}
])

# METADATA
# description: |
#   the strategy overrides domain bundles ship
#   (data.mcpcdomain.<domain>.strategyOverrides), in domain then row order,
#   each with its source for the decision's reasons
strategy_overrides := [object.union(row, {"source": sprintf("bundle:%s:strategyOverrides[%d]", [domain, i])}) |
	some domain in sort(object.keys(data.mcpcdomain)) # regal ignore:unresolved-reference
	some i, row in object.get(data.mcpcdomain[domain], "strategyOverrides", []) # regal ignore:unresolved-reference
	is_object(row)
	is_object(row.when)
	is_string(row.strategy)
]

# a domain bundle's rows of one table, in domain then row order; no domain
# bundle loaded is no rows
_domain_table(name) := [row |
	some domain in sort(object.keys(data.mcpcdomain)) # regal ignore:unresolved-reference
	some row in object.get(data.mcpcdomain[domain], name, []) # regal ignore:unresolved-reference
]

# complete rules built once per decision: a partial object looked up by key
# walks every entry on each lookup, hence the ignore directives

# METADATA
# description: MigrationRules by the tag they migrate
rules_by_tag := {rule.fromTag: rule | # regal ignore:prefer-set-or-object-rule
	some rule in migration_rules
}

# what reads as a custom element tag (policies/data/tags.json); Go finds the
# tags it reports as facts with the same pattern, read from this policy's data
_tag_pattern := tables.custom_element_tag.pattern

# The views below run once per change node on every plan decision, so they
# are comprehensions that call no function per node where they can (a call
# costs more than the builtins it wraps) and leave the per-migration walks to
# the rules, which take them only when a guard over these views shows
# something to report.

# the lowered editIntent and targetSymbols of a node, space separated (a tag
# never holds a space, so the tags of the whole are the tags of each part),
# the strings among them
_text(node) := lower(concat(" ", array.concat(
	[node.editIntent | is_string(node.editIntent)],
	[symbol | some symbol in object.get(node, "targetSymbols", []); is_string(symbol)],
)))

# _text of every change node: for the usual plan (every editIntent a string,
# every targetSymbols an array of strings) in two builtin calls per node; a
# node that is not usual leaves its text out, and then every text is _text
_usual_texts := {i: text | # regal ignore:prefer-set-or-object-rule
	some i, node in plan.change_nodes
	text := lower(concat(" ", [node.editIntent, concat(" ", node.targetSymbols)]))
}

_texts := _usual_texts if {
	count(_usual_texts) == count(plan.change_nodes)
} # regal ignore:prefer-set-or-object-rule

else := {i: _text(node) | some i, node in plan.change_nodes}

# METADATA
# description: the custom element tags a node's editIntent and targetSymbols name
named_tags(node) := {tag | some tag in regex.find_n(_tag_pattern, _text(node), -1)}

# Go reports the tags each change node names (input.submissionFacts.nodeTags,
# namedTags, matched as _tag_pattern over the lowered strings) so no regex
# runs per node here; an input without them (one recorded before Go
# reported them) has them found here.
_tag_facts if is_array(input.submissionFacts.nodeTags)

# METADATA
# scope: document
# description: change node index to the tags its editIntent and targetSymbols name
node_tags := {i: tags | # regal ignore:prefer-set-or-object-rule
	some i, _ in plan.change_nodes
	names := input.submissionFacts.nodeTags[i]
	tags := {tag | some tag in names}
} if {
	_tag_facts
}

node_tags := {i: {tag | some tag in regex.find_n(_tag_pattern, text, -1)} | # regal ignore:prefer-set-or-object-rule
	some i, text in _texts
} if {
	not _tag_facts
}

# METADATA
# scope: document
# description: the tags the change nodes name (node_tags of them all, in one regex call)
plan_named_tags := {tag | some tag in input.submissionFacts.namedTags} if _tag_facts

plan_named_tags := {tag | some tag in regex.find_n(_tag_pattern, _all_texts, -1)} if not _tag_facts

_all_texts := concat(" ", [text | some text in _texts])

# Go reports, per tag a change node's targetFile uses (input.enforcement
# fileTags of the string targetFiles), those targetFiles
# (input.submissionFacts.aggregates.tagTargets): the join of the plan and
# the graph's facts, which Go holds both of, so no rule builds the tags of
# every target file and the files of every tag. An input without it (one
# recorded before Go reported it) has it worked out here.
_tag_target_facts if is_object(plan.aggregates.tagTargets)

# METADATA
# scope: document
# description: tag to the change nodes' targetFiles that use it (input.enforcement.fileTags)
tag_targets := plan.aggregates.tagTargets if _tag_target_facts

tag_targets := {tag: files | # regal ignore:prefer-set-or-object-rule
	some tag in {tag | some file in plan.change_targets; some tag in _file_tags(file)}
	files := {file | some file in plan.change_targets; tag in _file_tags(file)}
} if {
	not _tag_target_facts
}

_file_tags(file) := object.get(input.enforcement.fileTags, file, [])

# the tags that have a MigrationRule
_rule_tags := object.keys(rules_by_tag)

# Go reports the change nodes by the tags they name, by the string
# targetFile they change and by the string policyRefs they cite
# (input.submissionFacts.aggregates tagNodes, targetNodes, refNodes; and
# untargeted, those without a targetFile), so the migration views below are
# built per MigrationRule from those indexes instead of per node; an input
# without them (one recorded before Go reported them) has them worked out
# node by node (_node_migrated).
_index_facts if is_object(plan.aggregates.tagNodes)

# METADATA
# description: |
#   tag with a MigrationRule to the indexes of the change nodes that migrate
#   it (tags no node migrates left out): the nodes whose editIntent or
#   targetSymbols name the tag, and under the migration strategy those whose
#   targetFile uses it (a node without a targetFile then migrates nothing)
migrating_nodes := {tag: nodes | # regal ignore:prefer-set-or-object-rule
	some tag in (object.keys(_naming) | object.keys(_using))
	nodes := object.get(_naming, tag, set()) | object.get(_using, tag, set())
	count(nodes) > 0
} if {
	_index_facts
} else := {tag: {i | some i, tags in _node_migrated; tag in tags} | # regal ignore:prefer-set-or-object-rule
	some tag in {tag | some tags in _node_migrated; some tag in tags}
}

# tag with a MigrationRule to the change nodes that name it (under the
# migration strategy those with a targetFile) and to those whose targetFile
# uses it (under the migration strategy), walking only the plan's tags
_naming := {tag: nodes | # regal ignore:prefer-set-or-object-rule
	some tag, list in plan.aggregates.tagNodes
	rules_by_tag[tag]
	nodes := {i | some i in list} - _untargeted
}

_using := {tag: nodes | # regal ignore:prefer-set-or-object-rule
	_migration_strategy
	some tag, files in tag_targets
	rules_by_tag[tag]
	nodes := union({_targeting(file) | some file in files})
}

_targeting(file) := {i | some i in plan.aggregates.targetNodes[file]}

default _untargeted := set()

_untargeted := {i | some i in plan.aggregates.untargeted} if _migration_strategy

# change node index to the tags with a MigrationRule it migrates, node by
# node, for an input without Go's indexes
_node_migrated := {i: tags | # regal ignore:prefer-set-or-object-rule
	count(migration_rules) > 0
	some i, node in plan.change_nodes
	file_tags := _file_tags(node.targetFile) # undefined without a targetFile: it migrates nothing
	tags := (node_tags[i] | {tag | some tag in file_tags}) & _rule_tags
	count(tags) > 0
} if {
	_migration_strategy
} else := {i: tags | # regal ignore:prefer-set-or-object-rule
	count(migration_rules) > 0
	some i, named in node_tags
	tags := named & _rule_tags
	count(tags) > 0
}

# METADATA
# description: change node index to the tags with a MigrationRule it migrates (migrating_nodes by node)
migrated_tags := {i: tags | # regal ignore:prefer-set-or-object-rule
	some i in migrating
	tags := {tag | some tag, nodes in migrating_nodes; i in nodes}
}

# METADATA
# description: |
#   the migrations of the plan: a change node migrates a tag with a
#   MigrationRule when its editIntent or targetSymbols name the tag, or its
#   targetFile uses the tag under the migration strategy
migrations := [migration | # regal ignore:prefer-set-or-object-rule
	some tag, nodes in migrating_nodes
	some i in nodes
	migration := _migration(i, tag)
]

# METADATA
# description: the migration of a tag by a change node
migration_of(i, tag) := _migration(i, tag)

_migration(i, tag) := {"index": i, "nodeId": plan.change_nodes[i].nodeId, "tag": tag, "rule": rules_by_tag[tag]}

# METADATA
# description: the tags whose MigrationRule has each status
tags_with_status := {status: tags | # regal ignore:prefer-set-or-object-rule
	some status in {rule.status | some rule in migration_rules}
	tags := {tag | some tag, rule in rules_by_tag; rule.status == status}
}

# METADATA
# description: the indexes of the change nodes that migrate a tag
migrating := union({nodes | some nodes in migrating_nodes})

# METADATA
# description: the indexes of the migrating change nodes off the low-evidence path
unguarded_migrating := migrating - guarded_indexes

# METADATA
# description: |
#   the indexes of the change nodes that migrate a tag whose MigrationRule is
#   not approved, or that take the low-evidence path
weak := guarded_indexes | union({nodes | some tag, nodes in migrating_nodes; tag in _unapproved_tags})

_unapproved_tags := {tag | # regal ignore:prefer-set-or-object-rule
	some tag, rule in rules_by_tag
	rule.status != "approved"
}

# METADATA
# description: |
#   tag with a MigrationRule to the indexes of the change nodes that migrate
#   it without citing the rule's id in policyRefs (tags all cite left out)
uncited_nodes := {tag: uncited | # regal ignore:prefer-set-or-object-rule
	some tag, nodes in migrating_nodes
	id := rules_by_tag[tag].id

	# Go lists the nodes citing a ref in node order, once each: when that
	# list is the migrating nodes sorted, every one of them cites the rule
	sort(nodes) != object.get(plan.aggregates.refNodes, id, [])
	uncited := nodes - citing(id)
	count(uncited) > 0
} if {
	_index_facts
} else := {tag: uncited | # regal ignore:prefer-set-or-object-rule
	some tag, nodes in migrating_nodes
	id := rules_by_tag[tag].id
	uncited := {i | some i in nodes; not id in cited[i]}
	count(uncited) > 0
}

# METADATA
# scope: document
# description: the indexes of the change nodes whose policyRefs cite ref
citing(ref) := {i | some i in plan.aggregates.refNodes[ref]} if _index_facts

citing(ref) := {i | some i, refs in cited; ref in refs} if not _index_facts

# METADATA
# description: the node's policyRefs (strings only)
refs(node) := {ref | some ref in object.get(node, "policyRefs", []); is_string(ref)}

# METADATA
# description: the indexes of the change nodes on the low-evidence path of ARCHITECTURE section 5
guarded_indexes := _guarded_by_facts if _field_facts

else := {i | # regal ignore:prefer-set-or-object-rule
	some i, node in plan.change_nodes
	node.lowEvidenceGuard == true
	node.requiresHumanReview == true
	is_string(node.uncertaintyNote)
	trim_space(node.uncertaintyNote) != ""
}

_guarded_by_facts := (_true_nodes("lowEvidenceGuard") & _true_nodes("requiresHumanReview")) & _noted

_noted := _text_nodes("uncertaintyNote")

# METADATA
# description: the indexes of the change nodes that state a fallback (a string that is not blank)
fallback_indexes := _text_nodes("fallback") if _field_facts

else := {i | # regal ignore:prefer-set-or-object-rule
	some i, node in plan.change_nodes
	trim_space(node.fallback) != ""
}

# Go reports the change nodes by the fields the low-evidence path and the
# fallback are read from (input.submissionFacts.aggregates trueNodes: the
# field is true; textNodes: a string not blank), so no rule tests them
# node by node; an input without them (one recorded before Go reported
# them) has them tested node by node above.
_field_facts if is_object(plan.aggregates.trueNodes)

_true_nodes(field) := {i | some i in plan.aggregates.trueNodes[field]}

_text_nodes(field) := {i | some i in plan.aggregates.textNodes[field]}

# METADATA
# description: an escalate node of the plan cites the rule
escalated(rule_id) if rule_id in _escalated

_escalated := {ref | # regal ignore:prefer-set-or-object-rule
	some i in plan.kind_indexes("escalate")
	some ref in refs(plan.nodes[i])
}

# METADATA
# description: change node index to its policyRefs, built once when something is to be cited
cited := {i: {ref | # regal ignore:prefer-set-or-object-rule
	some ref in object.get(node, "policyRefs", [])
	is_string(ref)
} |
	_citable
	some i, node in plan.change_nodes
}

_citable if count(migration_rules) > 0

_citable if count(input.enforcement.prose) > 0

# METADATA
# description: the prop names each declared contract allows, by tag
contract_props := {tag: {prop.name | some prop in contract.props} | # regal ignore:prefer-set-or-object-rule
	some tag, contract in contracts
}

# METADATA
# description: contracts of declared components by tag
contracts := {contract.tag: contract | # regal ignore:prefer-set-or-object-rule
	some contract in component_contracts
	contract.declared == true
}

# METADATA
# description: |
#   prose policies with their standing: enforceable when a usage example in
#   the same domain anchor grounds it and it is normative (must), advisory
#   otherwise, with the reason
prose := [entry | # regal ignore:prefer-set-or-object-rule
	some policy in input.enforcement.prose
	entry := {
		"id": policy.id,
		"file": policy.file,
		"line": policy.line,
		"text": policy.text,
		"scopes": policy.scopes,
		"mentions": object.get(policy, "mentions", []),
		"enforceable": _enforceable(policy),
		"why": _why(policy),
		"examples": policy.examples,
	}
]

default _enforceable(_) := false

_enforceable(policy) if {
	policy.grounded == true
	policy.strength == "must"
	count(object.get(policy, "mentions", [])) > 0
}

_why(policy) := sprintf("grounded by %d usage example(s) in its scope, e.g. %s:%d", [
	count(policy.examples),
	policy.examples[0].file, policy.examples[0].line,
]) if {
	_enforceable(policy)
}

_why(policy) := "advisory: no usage example of a component it names in its scope grounds it" if {
	policy.grounded != true
}

_why(policy) := "advisory: grounded but only a recommendation (should), not a rule (must)" if {
	policy.grounded == true
	policy.strength != "must"
}

_why(policy) := "advisory: names no component a plan could be checked against" if {
	policy.grounded == true
	policy.strength == "must"
	count(object.get(policy, "mentions", [])) == 0
}

# METADATA
# description: what a plan must cite, for the pack's planGraphSchema.enforcementObligations
obligations := array.flatten([
	[_migration_obligation(rule) | some rule in migration_rules],
	[{
		"policy": constraint.id,
		"kind": "MacroConstraint",
		"components": array.concat([constraint.ifContains], constraint.forbid),
		"must": sprintf("add none of %s to a page that contains %s", [
			concat(", ", constraint.forbid),
			constraint.ifContains,
		]),
	} |
		some constraint in input.enforcement.macroConstraints
	],
	[{
		"policy": entry.id,
		"kind": "ProsePolicy",
		"components": entry.mentions,
		"must": "cite it in policyRefs on every change node that touches a component it names within its scope",
	} |
		some entry in prose
		entry.enforceable
	],
])

_status_must := {
	"approved": "cite it in policyRefs; the mapping applies",
	"candidate": "cite it in policyRefs and set lowEvidenceGuard, uncertaintyNote and requiresHumanReview",
	"unknown": "cite it in policyRefs and add an escalate node citing it (or the low-evidence path)",
	"no_analog": "cite it in policyRefs and state the fallback (fallback field, or an escalate node citing it)",
}

_migration_obligation(rule) := {
	"policy": rule.id,
	"kind": "MigrationRule",
	"fromTag": rule.fromTag,
	"toTag": object.get(rule, "toTag", ""),
	"status": rule.status,
	"must": object.get(_status_must, rule.status, "cite it in policyRefs"),
}

# METADATA
# description: |
#   the pack's policies: the MigrationRules in scope with status and prop
#   mappings, the component contracts, and the prose policies with whether
#   they are enforceable and why
pack_policies := array.flatten([
	[object.union({"kind": "MigrationRule"}, _pack_rule(rule)) |
		some rule in sort_by_id(migration_rules)
	],
	[object.union({"kind": "ComponentContract"}, contract) | some contract in component_contracts],
	[_pack_constraint(constraint) | some constraint in sort_by_id(input.enforcement.macroConstraints)],
	[object.union({"kind": "ProsePolicy"}, entry) | some entry in sort_by_id([entry | some entry in prose])],
])

_pack_constraint(constraint) := {
	"kind": "MacroConstraint",
	"id": constraint.id,
	"ifContains": constraint.ifContains,
	"forbid": constraint.forbid,
	"reason": object.get(constraint, "reason", ""),
}

_pack_rule(rule) := {
	"id": rule.id,
	"fromTag": rule.fromTag,
	"toTag": object.get(rule, "toTag", ""),
	"status": rule.status,
	"propMappings": object.get(rule, "propMappings", {}),
	"constraints": object.get(rule, "constraints", []),
	"fallback": object.get(rule, "fallback", ""),
}

# METADATA
# description: the pack's memories (the active records) in id order
pack_memories := [object.remove(record, ["traceRef"]) | some record in memory.active]

# METADATA
# description: a list of objects in id order
sort_by_id(list) := [entry | some id in sort([e.id | some e in list]); some entry in list; entry.id == id]
