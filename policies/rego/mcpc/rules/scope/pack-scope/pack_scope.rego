# METADATA
# title: Pack scope
# description: |
#   read_file_lines and apply_code_patch act only on a valid path whose
#   canonical form is in the context pack; lookup_symbol_definition,
#   trace_symbol_graph and search_codebase_text given an explicit file
#   (args.targetFile, args.files) deny when it is outside the pack (without one
#   they answer from obligations.searchScope). args.files entries are compared
#   verbatim, so a non-canonical spelling is outside the pack. A file outside
#   the pack is denied the same way whether it exists, is missing, a folder or
#   a link: only what the path string shows is reported for it.
#   apply_code_patch on the targetFile of a create change node needs no pack
#   entry while the file does not exist, or holds what this work last wrote or
#   read there (an existing file it never saw stays out of reach).
# custom:
#   code: PACK_SCOPE_VIOLATION
#   remediation: >-
#     Use a repository-relative path listed in contextPack.files; to work on another file, escalate so the
#     controller can add it to the pack.
#   severity: error
#   suggestedVerb: escalate
package mcpc.rules.scope["pack-scope"]

import data.mcpc.lib.paths
import data.mcpc.lib.turn
import data.mcpc.result

_target_verbs := {
	"read_file_lines",
	"apply_code_patch",
	"lookup_symbol_definition",
	"trace_symbol_graph",
	"search_codebase_text",
}

# a problem the path string itself shows
report contains violation if {
	input.verb in _target_verbs
	some problem in input.paths.targetFile.problems
	not problem in paths.filesystem_problems
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q %s", [input.paths.targetFile.raw, paths.reason(problem)]),
		"path": "args.targetFile",
	})
}

# what the filesystem says, for a pack file only
report contains violation if {
	input.verb in _target_verbs
	input.paths.targetFile.canonical in input.pack.files
	some problem in input.paths.targetFile.problems
	problem in paths.filesystem_problems
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q %s", [input.paths.targetFile.raw, paths.reason(problem)]),
		"path": "args.targetFile",
	})
}

report contains violation if {
	target := input.paths.targetFile
	not target.canonical in input.pack.files
	target.canonical != ""
	input.verb in _target_verbs
	not _own_new_file
	not _new_file_of_plan(target)
	every problem in target.problems {
		problem in paths.filesystem_problems
	}
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is not in the context pack", [target.canonical]),
		"path": "args.targetFile",
	})
}

report contains violation if {
	input.verb in {"read_file_lines", "apply_code_patch"}
	not input.paths.targetFile
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s has no resolvable targetFile", [input.verb]),
		"path": "args.targetFile",
	})
}

report contains violation if {
	input.verb in _target_verbs
	some i, file in input.args.files
	not file in input.pack.files
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%q is not in the context pack", [file]),
		"path": sprintf("args.files[%d]", [i]),
	})
}

# a create node's file that does not exist yet: its only problem is not_found
_new_file_of_plan(target) if {
	turn.creates_target
	target.problems == ["not_found"]
}

# the create node's file holds what this work last wrote (or read) there
_own_new_file if {
	turn.creates_target
	target := input.paths.targetFile
	input.reads[target.canonical] == target.hash
}
