# METADATA
# title: Host hook facts
# description: |
#   Helpers for the rules of mcpc.rules.hook, which judge a host's own tool
#   use (Claude Code's Read, Edit, Bash; Cursor's file reads and shell) that
#   `mcpc hook` reports (docs/hooks.md). input.hook.targets lists every path
#   the event reads or writes, canonicalised by Go; input.work is the work the
#   event belongs to, absent when the workspace has no active work.
package mcpc.lib.hook

import data.mcpc.lib.protected
import data.mcpc.lib.tables

# METADATA
# description: the event belongs to an active work, whose pack and plan bind it
bound if input.work.id != ""

# METADATA
# description: |
#   a file of mcpc's own (configuration, seed, memory, policies, state, ledger,
#   client wiring): the protected paths controller_turn refuses too
#   (policies/data/protected.json)
own_file(file) if protected.is_protected(file)

# METADATA
# description: mcpc's runtime state or git internals
state_file(file) if {
	some rule in tables.hookpolicy.stateFiles
	glob.match(rule.glob, ["/"], file)
}

# METADATA
# description: a file the pack policy calls secret (its globs match any case)
secret_file(file) if {
	some rule in tables.packpolicy.exclusions
	rule.secret
	glob.match(rule.glob, ["/"], lower(file))
}

# METADATA
# description: an argument vector starts with a command entry ("git push" matches git push origin)
command_matches(entry, argv) if {
	words := split(entry, " ")
	count(argv) >= count(words)
	array.slice(argv, 0, count(words)) == words
}

# METADATA
# description: the segment runs a command of the named list of policies/data/hook.json
listed(list, argv) if {
	some entry in tables.hookpolicy[list]
	command_matches(entry, argv)
}

# METADATA
# description: |
#   the segment runs a command the repository configured as safe
#   (.ai/config hooks.safeCommands)
configured_safe(argv) if {
	some entry in object.get(input, ["config", "safeCommands"], [])
	command_matches(entry, argv)
}

# METADATA
# scope: document
# description: the message name of a target (its canonical path, else what the host sent)
name(target) := target.path.canonical if target.path.canonical != ""

name(target) := target.path.raw if target.path.canonical == ""

# METADATA
# description: |
#   the options of argv's command that policies/data/hook.json
#   commandOptions[kind] lists (kind writes: the option makes a safe command
#   write a file; runs: it makes it run another program)
unsafe_options(kind, argv) := {opt |
	some entry, options in tables.hookpolicy.commandOptions[kind]
	command_matches(entry, argv)
	some arg in array.slice(argv, count(split(entry, " ")), count(argv))
	some opt in options
	_option_matches(opt, arg)
}

# An option as written (--exec, -o), with its value attached by = or, for a
# Go flag, with two dashes (--exec=x). An entry -o* is a POSIX short option,
# which also takes its value attached and clusters with others (sort -uofile).
_option_matches(opt, arg) if arg == opt

_option_matches(opt, arg) if startswith(arg, concat("", [opt, "="]))

_option_matches(opt, arg) if {
	regex.match(`^-[A-Za-z][A-Za-z-]+$`, opt)
	_go_long(opt, arg)
}

_option_matches(opt, arg) if {
	endswith(opt, "*")
	letter := substring(opt, 1, 1)
	regex.match(concat("", [`^-[A-Za-z0-9]*`, letter]), arg)
	not startswith(arg, "--")
}

_option_matches("+", arg) if startswith(arg, "+")

# GNU getopt takes any unambiguous prefix of a long option (sort --out=x).
_option_matches(opt, arg) if {
	startswith(opt, "--")
	name := split(arg, "=")[0]
	count(name) > 2
	startswith(name, "--")
	startswith(opt, name)
}

_go_long(opt, arg) if arg == concat("", ["-", opt])

_go_long(opt, arg) if startswith(arg, concat("", ["-", opt, "="]))

# METADATA
# description: |
#   the operand argv writes, by policies/data/hook.json outputOperands (the
#   nth of the words after the command's that are no options: uniq's second),
#   when argv has that many
output_operand(argv) := operand if {
	some entry, n in tables.hookpolicy.outputOperands
	command_matches(entry, argv)
	operands := [arg |
		some arg in array.slice(argv, count(split(entry, " ")), count(argv))
		not startswith(arg, "-")
	]
	count(operands) >= n
	operand := operands[n - 1]
}
