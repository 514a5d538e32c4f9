# METADATA
# title: Stale context
# description: |
#   A write (a patch, or the replace_lexeme_in_file recipe) is based on what
#   the agent read: this work must have read the target file, and the sha256
#   it read must equal the file's current sha256 (seed 004). A patch of a
#   file never read is an edit made blind. Judged for pack files only: for
#   another file, whether it could have been read would tell that it exists.
# custom:
#   code: STALE_CONTEXT
#   remediation: "Read the file again (read_file_lines) and rebuild the edits against its current content."
#   severity: error
#   suggestedVerb: read_file_lines
package mcpc.rules.exec["stale-context"]

import data.mcpc.result

report contains violation if {
	_writes
	target := input.paths.targetFile
	read := input.reads[target.canonical]
	read != target.hash
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s changed since it was read (read %s, now %s)", [target.canonical, read, target.hash]),
		"path": "args.targetFile",
	})
}

report contains violation if {
	_writes
	target := input.paths.targetFile
	target.valid
	target.canonical in input.pack.files # outside it, pack-scope denies alike whether the file exists or not
	not input.reads[target.canonical]
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s has not been read in this work; a patch is built on what was read", [target.canonical]),
		"path": "args.targetFile",
	})
}

# a patch, or a recipe that writes the node's file
_writes if input.verb == "apply_code_patch"

_writes if {
	input.verb == "run_automation_recipe"
	input.args.recipeId == "replace_lexeme_in_file"
}
