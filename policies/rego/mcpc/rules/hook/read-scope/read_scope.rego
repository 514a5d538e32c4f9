# METADATA
# title: Native reads stay in the pack
# description: |
#   While a work is active, a host tool reads only files of its context pack:
#   a path outside the pack, outside the worktree or otherwise unresolvable is
#   denied, as read_file_lines would deny it. A shell command that searches
#   a directory (treeReaders: grep, rg, diff given a folder), searches the
#   working directory when given no path (cwdReaders, grep -r), or prints
#   the history's content (contentOptions: git log -p) reads files the pack
#   may not hold, as the host's Grep tool on a folder does.
# custom:
#   code: HOOK_READ_OUTSIDE_PACK
#   remediation: >-
#     Read only files listed in the work's contextPack.files; to see another file, call controller_turn
#     with verb escalate so the controller can add it to the pack.
#   severity: error
package mcpc.rules.hook["read-scope"]

import data.mcpc.lib.hook
import data.mcpc.lib.tables
import data.mcpc.result

report contains violation if {
	hook.bound
	some target in input.hook.targets
	target.access == "read"
	not target.path.canonical in input.pack.files
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf("%s is not in the context pack of work %s", [hook.name(target), input.work.id]),
		"path": target.at,
	})
}

report contains violation if {
	hook.bound
	some target in input.hook.targets
	target.path.dir
	segment := input.hook.shell.segments[target.segment]
	_tree_reader(segment.argv)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%q reads the files under %s, which are not all in the context pack of work %s",
			[concat(" ", segment.argv), hook.name(target), input.work.id],
		),
		"path": target.at,
	})
}

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	_searches_cwd(segment.argv)
	not _names_a_path(i)
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%q searches the working directory, whose files are not all in the context pack of work %s",
			[concat(" ", segment.argv), input.work.id],
		),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}

report contains violation if {
	hook.bound
	some i, segment in input.hook.shell.segments
	some entry, options in tables.hookpolicy.contentOptions
	hook.command_matches(entry, segment.argv)
	some arg in segment.argv
	arg in options
	violation := result.fail(rego.metadata.chain(), {
		"message": sprintf(
			"%q prints the history of files the context pack of work %s may not hold",
			[concat(" ", segment.argv), input.work.id],
		),
		"path": sprintf("hook.shell.segments[%d]", [i]),
	})
}

_tree_reader(argv) if hook.listed("treeReaders", argv)

_searches_cwd(argv) if hook.listed("cwdReaders", argv)

# grep searches the working directory only when recursive (-r, -R, -rn)
_searches_cwd(argv) if {
	argv[0] in {"grep", "egrep", "fgrep"}
	some arg in argv
	_recursive(arg)
}

_recursive(arg) if regex.match(`^-[A-Za-z]*[rR]`, arg)

_recursive(arg) if arg in {"--recursive", "--dereference-recursive"}

# A search names a path when an operand after its first (the pattern)
# exists or points outside.
_names_a_path(i) if {
	some target in input.hook.targets
	target.segment == i
	target.arg > _pattern_arg(input.hook.shell.segments[i].argv)
	_path_like(target)
}

_path_like(target) if target.access == "read"

_path_like(target) if target.path.dir

_pattern_arg(argv) := min([j | some j, arg in argv; j >= _command_words(argv); not startswith(arg, "-")])

_command_words(argv) := 2 if argv[0] == "git"

_command_words(argv) := 1 if argv[0] != "git"
