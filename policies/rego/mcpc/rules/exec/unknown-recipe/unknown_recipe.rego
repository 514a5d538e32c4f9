# METADATA
# title: Unknown recipe
# description: |
#   run_automation_recipe runs only the recipes of policies/data/recipes.json.
# custom:
#   code: INVALID_ARGS
#   remediation: "Use a known recipeId: replace_lexeme_in_file or run_targeted_validation."
#   severity: error
#   suggestedVerb: run_automation_recipe
package mcpc.rules.exec["unknown-recipe"]

import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	input.verb == "run_automation_recipe"
	not tables.recipes[input.args.recipeId]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("recipe %v is not one of %s", [
			object.get(input.args, "recipeId", null),
			concat(", ", object.keys(tables.recipes)),
		]),
		"path": "args.recipeId",
	})
}
