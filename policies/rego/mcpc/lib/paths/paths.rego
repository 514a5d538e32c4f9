# METADATA
# title: Path problems
# description: Human-readable reasons for the path problems Go reports in input.paths[*].problems.
package mcpc.lib.paths

# METADATA
# description: problem code to the phrase a denial uses after the quoted path
reasons := {
	"absolute": "is an absolute path",
	"backslash": "contains a backslash",
	"nul": "contains a NUL byte",
	"control_char": "contains a control character",
	"percent_escape": "contains a percent-escape",
	"traversal": "contains a traversal segment",
	"escapes_worktree": "resolves outside the worktree",
	"symlink": "is or passes through a symbolic link",
	"git_internal": "is inside .git",
	"state_dir": "is inside mcpc's state directory .ai/tmp",
	"not_found": "does not exist",
	"not_regular": "is not a regular file",
	"hard_linked": "is hard-linked",
	"too_long": "is too long",
	"invalid_utf8": "is not valid UTF-8",
	"unicode_format": "contains invisible Unicode format characters",
	"empty": "is empty",
	"scratch_unavailable": "cannot be written: the work's scratch folder is reached through a link or cannot be opened",
}

# METADATA
# scope: document
# description: the phrase for a problem code (unknown codes still deny)
reason(problem) := reasons[problem]

reason(problem) := sprintf("has problem %s", [problem]) if not reasons[problem]

# METADATA
# description: |
#   problems learnt from the filesystem rather than from the path string:
#   reported for a pack file only, since for any other file they would tell
#   an agent whether it exists and what it is (an ignored .env, a secret
#   left out of the pack) where the path alone says nothing
filesystem_problems := {"escapes_worktree", "symlink", "not_found", "not_regular", "hard_linked"}
