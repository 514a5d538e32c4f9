package mcpc.hook_test

import data.mcpc.hook

# _segment is a shell command of one segment with these facts (assignments,
# expansion), its targets given.
_segment(argv, facts, targets) := with_hook({"tool": "Bash", "kind": "shell", "targets": targets, "shell": {
	"command": concat(" ", argv), "parsed": true, "substitution": false,
	"expansion": object.get(facts, "expansion", false),
	"segments": [{
		"argv": argv, "redirects": [], "inputs": [],
		"assignments": object.get(facts, "assignments", []), "wrappers": [],
	}],
}})

# _operand is a target named by argv[j] of segment 0.
_operand(access, file, j, facts) := object.union_n([
	_target(access, file),
	{"at": sprintf("hook.shell.segments[0].argv[%d]", [j]), "segment": 0, "arg": j},
	{"path": object.union(_target(access, file).path, facts)},
])

_codes(d) := [v.code | some v in array.concat(d.denials, d.asks)]

test_fail_write_option if {
	d := hook.decision with input as _segment(["go", "build", "-o", "src/app", "./..."], {}, [])
	d.denials == [{
		"code": "HOOK_SHELL_WRITE",
		"message": "\"go build -o src/app ./...\" writes a file (-o)",
		"path": "hook.shell.segments[0]",
		"remediation": "Change files with apply_code_patch through controller_turn, on a change node of the accepted plan.",
		"rule": "mcpc.rules.hook[\"shell-write\"]",
		"severity": "error",
	}]
}

test_fail_write_option_attached_and_clustered if {
	every argv in [["sort", "-uosrc/o", "src/i"], ["sort", "--out=x", "a"], ["git", "diff", "--output=x"]] {
		d := hook.decision with input as _segment(argv, {}, [])
		_codes(d) == ["HOOK_SHELL_WRITE"]
	}
}

test_success_option_that_only_looks_alike if {
	every argv in [["go", "test", "-count=1", "./..."], ["sort", "-u", "a"], ["go", "build", "./..."]] {
		d := hook.decision with input as _segment(argv, {}, [])
		d.permission == "allow"
	}
}

test_fail_output_operand if {
	d := hook.decision with input as _segment(["uniq", "a", "b"], {}, [])
	[v.message | some v in d.denials] == ["\"uniq a b\" writes b"]
}

test_fail_run_option_asks if {
	d := hook.decision with input as _segment(["go", "test", "-exec", "rm -rf src", "./..."], {}, [])
	d.permission == "ask"
	d.asks == [{
		"code": "HOOK_SHELL_UNLISTED",
		"message": "\"go test -exec rm -rf src ./...\" runs a program its option -exec names",
		"path": "hook.shell.segments[0]",
		"remediation": "Prefer controller_turn verbs (search_codebase_text, run_automation_recipe); a person decides on other commands, or lists the ones to allow in .ai/config/repo.json hooks.safeCommands.",
		"rule": "mcpc.rules.hook[\"shell-unlisted\"]",
		"severity": "ask",
	}]
}

test_fail_go_flag_with_two_dashes_asks if {
	d := hook.decision with input as _segment(["go", "vet", "--vettool=x", "./..."], {}, [])
	_codes(d) == ["HOOK_SHELL_UNLISTED"]
}

test_fail_make_variable_asks if {
	d := hook.decision with input as _segment(["make", "test", "SHELL=/tmp/evil"], {}, [])
	[v.message | some v in d.asks] == ["\"make test SHELL=/tmp/evil\" sets a make variable (SHELL=/tmp/evil), which can change what it runs"]
}

test_fail_assignment_asks if {
	d := hook.decision with input as _segment(["git", "log"], {"assignments": ["GIT_PAGER"]}, [])
	[v.message | some v in d.asks] == ["the command sets GIT_PAGER, which can change what it runs"]
	[v.path | some v in d.asks] == ["hook.shell.segments[0].assignments"]
}

test_success_harmless_assignment if {
	d := hook.decision with input as _segment(["ls"], {"assignments": ["LANG", "NO_COLOR"]}, [])
	d.permission == "allow"
}

test_fail_expansion_asks if {
	d := hook.decision with input as _segment(["cat", "$HOME/.bashrc"], {"expansion": true}, [])
	[v.message | some v in d.asks] == ["the command expands variables or braces the hook cannot judge"]
}

test_fail_search_of_a_folder if {
	d := hook.decision with input as _segment(["grep", "-rn", "x", "src"], {}, [_operand("named", "src", 3, {"dir": true, "regular": false})])
	d.denials == [{
		"code": "HOOK_READ_OUTSIDE_PACK",
		"message": "\"grep -rn x src\" reads the files under src, which are not all in the context pack of work work-1",
		"path": "hook.shell.segments[0].argv[3]",
		"remediation": "Read only files listed in the work's contextPack.files; to see another file, call controller_turn with verb escalate so the controller can add it to the pack.",
		"rule": "mcpc.rules.hook[\"read-scope\"]",
		"severity": "error",
	}]
}

test_success_listing_a_folder if {
	d := hook.decision with input as _segment(["ls", "src"], {}, [_operand("named", "src", 1, {"dir": true, "regular": false})])
	d.permission == "allow"
}

test_fail_search_of_the_working_directory if {
	every argv in [["rg", "x"], ["grep", "-r", "x"], ["git", "grep", "x"]] {
		d := hook.decision with input as _segment(argv, {}, [_operand("named", "x", count(argv) - 1, {"exists": false, "regular": false})])
		[v.message | some v in d.denials] == [sprintf("%q searches the working directory, whose files are not all in the context pack of work work-1", [concat(" ", argv)])]
	}
}

test_fail_search_whose_pattern_names_a_file if {
	# rg's first operand is its pattern: a pack file of that name does not make rg search only it
	d := hook.decision with input as _segment(["rg", "src/a.ts"], {}, [_operand("read", "src/a.ts", 1, {})])
	_codes(d) == ["HOOK_READ_OUTSIDE_PACK"]
}

test_success_search_of_a_pack_file if {
	d := hook.decision with input as _segment(["rg", "x", "src/a.ts"], {}, [
		_operand("named", "x", 1, {"exists": false, "regular": false}),
		_operand("read", "src/a.ts", 2, {}),
	])
	d.permission == "allow"
}

test_fail_history_content if {
	d := hook.decision with input as _segment(["git", "log", "-p"], {}, [])
	[v.message | some v in d.denials] == ["\"git log -p\" prints the history of files the context pack of work work-1 may not hold"]
}

test_success_history_summary if {
	d := hook.decision with input as _segment(["git", "log", "--oneline"], {}, [])
	d.permission == "allow"
}

test_fail_web_tool if {
	d := hook.decision with input as with_hook({"tool": "WebFetch", "kind": "other", "targets": []})
	[v.message | some v in d.denials] == ["WebFetch reaches the network"]
	[v.code | some v in d.denials] == ["HOOK_SHELL_NETWORK"]
}

test_fail_external_tool_asks if {
	d := hook.decision with input as with_hook({"tool": "mcp__fs__read_file", "kind": "external", "targets": []})
	d.permission == "ask"
	d.asks == [{
		"code": "HOOK_TOOL_UNLISTED",
		"message": "mcp__fs__read_file is a tool of another MCP server, whose reads and writes the hook cannot see",
		"path": "hook.tool",
		"remediation": "Work through controller_turn; a person decides whether another server's tool may run during a work.",
		"rule": "mcpc.rules.hook[\"external-tool\"]",
		"severity": "ask",
	}]
}

test_success_external_tool_without_work if {
	d := hook.decision with input as object.union(
		object.remove(input_doc, ["work"]),
		{"hook": {"host": "claude-code", "event": "PreToolUse", "tool": "mcp__fs__read_file", "kind": "external", "targets": []}},
	)
	d.permission == "allow"
}

test_fail_write_option_of_git_branch if {
	d := hook.decision with input as _segment(["git", "branch", "-D", "main"], {}, [])
	[v.code | some v in d.denials] == ["HOOK_SHELL_WRITE"]
}

test_fail_assignment_alone_asks if {
	d := hook.decision with input as _segment([], {"assignments": ["PATH"]}, [])
	[v.message | some v in d.asks] == ["the command sets PATH, which can change what it runs"]
}
