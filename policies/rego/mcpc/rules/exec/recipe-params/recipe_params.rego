# METADATA
# title: Recipe params
# description: |
#   A recipe runs only with the params it declares (policies/data/recipes.json):
#   every required one, nothing else. replace_lexeme_in_file also needs a
#   one-line lexeme (at most 200 characters) and a one-line replacement that
#   differs from it, a targetFile (when given) that is its change node's
#   target, and at least one whole-word occurrence of the lexeme there (Go
#   counts them in a dry run).
# custom:
#   code: RECIPE_PARAMS_INVALID
#   remediation: >-
#     Send the recipe's params as policies/data/recipes.json declares them;
#     for replace_lexeme_in_file, a lexeme present in the node's target file
#     as a whole word and a different replacement.
#   severity: error
package mcpc.rules.exec["recipe-params"]

import data.mcpc.lib.tables
import data.mcpc.lib.turn
import data.mcpc.result

_recipe := tables.recipes[input.args.recipeId] if input.verb == "run_automation_recipe"

_params := object.get(input.args, "params", {})

_lexeme_recipe if {
	_recipe
	input.args.recipeId == "replace_lexeme_in_file"
}

report contains violation if {
	some name in _recipe.params.required
	not _params[name]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s needs params.%s", [input.args.recipeId, name]),
		"path": sprintf("args.params.%s", [name]),
	})
}

report contains violation if {
	_recipe
	some name, _ in _params
	not name in _recipe.params.required
	not name in _recipe.params.optional
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s takes no params.%s (it takes %s)", [
			input.args.recipeId, name,
			concat(", ", array.concat(_recipe.params.required, _recipe.params.optional)),
		]),
		"path": sprintf("args.params.%s", [name]),
	})
}

report contains violation if {
	_lexeme_recipe
	some name in ["lexeme", "replacement"]
	value := _params[name]
	problem := _text_problem(name, value)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("params.%s %s", [name, problem]),
		"path": sprintf("args.params.%s", [name]),
	})
}

report contains violation if {
	_lexeme_recipe
	_params.lexeme == _params.replacement
	violation := result.fail(rego.metadata.chain(), {
		"message": "params.replacement equals params.lexeme: the recipe would change nothing",
		"path": "args.params.replacement",
	})
}

report contains violation if {
	_lexeme_recipe
	turn.plan_node.kind == "change"
	input.paths.targetFile.canonical != turn.plan_node.targetFile
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is not the target of change node %q (%s)", [
			input.paths.targetFile.canonical, input.args.planNodeId,
			turn.plan_node.targetFile,
		]),
		"path": "args.params.targetFile",
	})
}

report contains violation if {
	_lexeme_recipe
	is_string(_params.lexeme)
	input.recipe.targetFile != ""
	input.recipe.occurrences == 0
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s holds no whole-word occurrence of %q", [input.recipe.targetFile, _params.lexeme]),
		"path": "args.params.lexeme",
	})
}

_text_problem(_, value) := "is not a string" if not is_string(value)

_text_problem(name, value) := "is empty" if {
	name == "lexeme"
	value == ""
}

_text_problem(_, value) := "spans lines" if {
	is_string(value)
	contains(value, "\n")
}

_text_problem(_, value) := "is over 200 characters" if {
	is_string(value)
	count(value) > 200
}
