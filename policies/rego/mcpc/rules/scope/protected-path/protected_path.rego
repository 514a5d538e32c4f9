# METADATA
# title: Protected path
# description: |
#   mcpc's own files (policies/data/protected.json: .ai/config, .ai/graph/seed,
#   .ai/memory, .ai/policies, .ai/inbox, .ai/tmp, .orchestration and the MCP
#   client wiring) are out of an agent's reach: no read, search, lookup,
#   trace, patch (codemods included) or replace_lexeme_in_file recipe names
#   one as its target, and a
#   scratch write lands inside the work's own scratch folder, nowhere else
#   of them. Canonical paths are compared in lower case, so another case
#   of the same name on a case-insensitive filesystem is the same file. A
#   read of a file already in the pack is not judged again (packs leave
#   these files out); a patch always is.
# custom:
#   code: PROTECTED_PATH
#   remediation: >-
#     mcpc's configuration, seed knowledge, memory, policies, state and client wiring are changed by
#     people, not agents; what informs your work is in the context pack as facts. Work on repository files.
#   severity: error
package mcpc.rules.scope["protected-path"]

import data.mcpc.lib.protected
import data.mcpc.result

_read_verbs := {
	"read_file_lines",
	"lookup_symbol_definition",
	"trace_symbol_graph",
	"search_codebase_text",
}

_target_verbs := {
	"read_file_lines",
	"apply_code_patch",
	"lookup_symbol_definition",
	"trace_symbol_graph",
	"search_codebase_text",
}

# A patch target is always judged. A read of a pack file is not: packs have
# left mcpc's own files out since this rule exists, so a read turn (the hot
# path) pays no glob match for the file it reads. A pack built before then
# may still hold one: reading it stays possible until the next escalate
# drops it, patching it never is.
report contains violation if {
	_writes
	canonical := input.paths.targetFile.canonical
	protected.is_protected(canonical)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is mcpc's own: %s", [canonical, protected.reason(canonical)]),
		"path": "args.targetFile",
	})
}

report contains violation if {
	canonical := input.paths.targetFile.canonical
	not canonical in input.pack.files
	input.verb in _read_verbs
	protected.is_protected(canonical)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is mcpc's own: %s", [canonical, protected.reason(canonical)]),
		"path": "args.targetFile",
	})
}

# args.files is tested first: a read turn has none and stops there
report contains violation if {
	input.args.files
	input.verb in _target_verbs
	some i, file in input.args.files
	is_string(file)
	protected.is_protected(file)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q is mcpc's own: %s", [file, protected.reason(file)]),
		"path": sprintf("args.files[%d]", [i]),
	})
}

report contains violation if {
	input.verb == "write_scratch_file"
	destination := input.paths.relativePath.destination
	protected.is_protected(destination)
	not _in_scratch(destination, input.paths.relativePath.scratchRoot)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is mcpc's own and outside the work's scratch folder", [destination]),
		"path": "args.relativePath",
	})
}

# the verbs that write their targetFile: a patch (codemods included) and the
# replace_lexeme_in_file recipe
_writes if input.verb == "apply_code_patch"

_writes if {
	input.verb == "run_automation_recipe"
	input.args.recipeId == "replace_lexeme_in_file"
}

_in_scratch(destination, root) if {
	root != ""
	startswith(destination, concat("", [root, "/"]))
}

# the folder itself: scratch-scope denies writing it as a file
_in_scratch(destination, root) if {
	root != ""
	destination == root
}
