# METADATA
# title: Weak verification
# description: |
#   Every change node is mapped by at least one validate node (seed 000
#   invariant 5); a validate node maps only to change nodes of this plan; every
#   verification hook names a known recipe and a params.commandId among the
#   configured validation commands (validation.commands); and a change node's
#   targetFile is covered (validation.commands.<id>.covers) by a command of a
#   validate node mapped to it, so an agent cannot pick a check that never
#   looks at what it changed.
# custom:
#   code: PLAN_VERIFICATION_WEAK
#   remediation: >-
#     Add a validate node per change (mapsToNodeIds) whose verificationHooks run a configured validation
#     command: {recipeId: run_targeted_validation, params: {commandId: <id from config>}}.
#   severity: error
#   suggestedVerb: submit_execution_plan
package mcpc.rules.plan["weak-verification"]

import data.mcpc.lib.plan
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	not _mapped_are_changes
	change_ids := plan.change_ids
	count(_mapped - change_ids) > 0
	some i, node in plan.validate_nodes
	some k, target in node.mapsToNodeIds
	not target in change_ids
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"validate node %v maps to %v, which is not a change node of this plan",
			[node.nodeId, target],
		),
		"path": sprintf("%s.mapsToNodeIds[%d]", [plan.node_path(i), k]),
	})
}

report contains violation if {
	not _mapped_are_changes
	unmapped := plan.change_ids - _mapped
	count(unmapped) > 0
	some i, node in plan.change_nodes
	node.nodeId in unmapped
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %q is not mapped by any validate node", [node.nodeId]),
		"path": sprintf("%s.nodeId", [plan.node_path(i)]),
	})
}

report contains violation if {
	_unknown_recipe
	recipes := tables.recipes
	some i, node in plan.nodes
	some k, hook in node.verificationHooks
	not recipes[hook.recipeId]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %v: verification hook recipe %v is not one of %s", [
			node.nodeId, object.get(hook, "recipeId", null),
			concat(", ", object.keys(recipes)),
		]),
		"path": sprintf("%s.verificationHooks[%d].recipeId", [plan.node_path(i), k]),
	})
}

report contains violation if {
	_unconfigured_command
	configured := input.config.validationCommands
	some i, node in plan.nodes
	some k, hook in node.verificationHooks
	hook.recipeId == "run_targeted_validation"
	command := object.get(hook, ["params", "commandId"], null)
	not command in configured
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("node %v: validation command %v is not configured (configured: %s)", [
			node.nodeId, command,
			concat(", ", configured),
		]),
		"path": sprintf("%s.verificationHooks[%d].params.commandId", [plan.node_path(i), k]),
	})
}

report contains violation if {
	count(input.config.validationCovers) > 0
	not _covered_are_changes
	uncovered := plan.change_ids - _covered_ids
	count(uncovered) > 0
	some i, node in plan.change_nodes
	node.nodeId in uncovered
	is_string(node.targetFile)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("change node %q: no validation mapped to it covers %s (its commands: %s)", [
			node.nodeId, node.targetFile,
			concat(", ", sort({c | some [t, c] in _change_commands; t == node.nodeId})),
		]),
		"path": sprintf("%s.targetFile", [plan.node_path(i)]),
	})
}

# [change id, command] for every validation hook of the validate nodes, in
# one pass (a rule keyed by change id would be evaluated again per lookup)
_change_commands := [[target, command] | # regal ignore:prefer-set-or-object-rule
	some node in plan.validate_nodes
	some hook in node.verificationHooks
	hook.recipeId == "run_targeted_validation"
	command := object.get(hook, ["params", "commandId"], "")
	some target in node.mapsToNodeIds
]

# the validation commands of the plan (from its distinct hooks, a handful)
_commands := {object.get(hook, ["params", "commandId"], "") | # regal ignore:prefer-set-or-object-rule
	some hook in plan.hooks
	hook.recipeId == "run_targeted_validation"
}

_string_targets := {file | some file in plan.change_targets; is_string(file)} # regal ignore:prefer-set-or-object-rule

# command to the distinct target files it covers: each glob runs once per
# command and file, not once per node; a command without covers globs
# covers every file
_covers := {command: files | # regal ignore:prefer-set-or-object-rule
	some command in _commands
	files := {file |
		some file in _string_targets
		some pattern in object.get(input.config.validationCovers, command, ["**"])
		glob.match(pattern, ["/"], file)
	}
}

# every command covers every target file: a change node is then covered
# when any validation command is mapped to it
_all_cover if {
	every command in _commands {
		count(_covers[command]) == count(_string_targets)
	}
}

# the change nodes a command of one of their validate nodes covers: when
# every command covers every file, those a validate node with a targeted
# validation hook maps to (Go reports them by recipe,
# input.submissionFacts.aggregates recipeMapped; an input without them has
# them collected node by node)
_covered_ids := {target | some target in plan.aggregates.recipeMapped.run_targeted_validation} if {
	_all_cover
	is_object(plan.aggregates.recipeMapped)
} else := {target | # regal ignore:prefer-set-or-object-rule
	some node in plan.validate_nodes
	some hook in node.verificationHooks
	hook.recipeId == "run_targeted_validation"
	some target in node.mapsToNodeIds
} if {
	_all_cover
} else := {target | # regal ignore:prefer-set-or-object-rule
	some [target, command] in _change_commands
	_target_files[target] in _covers[command]
}

_target_files := {node.nodeId: node.targetFile | # regal ignore:prefer-set-or-object-rule
	some node in plan.change_nodes
	is_string(node.nodeId)
	is_string(node.targetFile)
}

# every mapsToNodeIds entry of the validate nodes
_mapped := plan.mapped

# Go's distinct lists (input.submissionFacts.aggregates) are sorted alike:
# when the validate nodes map to exactly the change ids (the usual plan), or
# their targeted validations cover exactly those, the set differences the
# rules above test are empty, known without building either set
_mapped_are_changes if plan.aggregates.mapped == plan.aggregates.changeIds

_covered_are_changes if {
	_all_cover
	plan.aggregates.recipeMapped.run_targeted_validation == plan.aggregates.changeIds
}

# guards over the plan's distinct hooks (usually a handful however many nodes)
_unknown_recipe if {
	recipes := tables.recipes
	some hook in plan.hooks
	not recipes[hook.recipeId]
}

_unconfigured_command if {
	configured := input.config.validationCommands
	some hook in plan.hooks
	hook.recipeId == "run_targeted_validation"
	not object.get(hook, ["params", "commandId"], null) in configured
}
