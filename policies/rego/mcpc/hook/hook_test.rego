package mcpc.hook_test

import data.mcpc.hook

_target(access, file) := {"access": access, "at": "tool_input.file_path", "path": {
	"raw": file, "canonical": file, "valid": true, "problems": [],
	"exists": true, "regular": true, "dir": false, "size": 10, "links": 1,
}}

# METADATA
# description: a Read of a pack file in work-1, whose change node owns src/a.ts
input_doc := {
	"hook": {"host": "claude-code", "event": "PreToolUse", "tool": "Read", "kind": "read", "targets": [_target("read", "src/a.ts")]},
	"binding": {"requested": "", "found": false, "active": ["work-1"]},
	"work": {"id": "work-1", "state": "PLAN_ACCEPTED"},
	"pack": {"files": ["src/a.ts", "src/b.ts"]},
	"owned": {"src/a.ts": ["change-a"]},
}

# METADATA
# description: input_doc with the hook section replaced by h
with_hook(h) := object.union(input_doc, {"hook": object.union(input_doc.hook, h)})

test_success_pack_read if {
	d := hook.decision with input as input_doc
	d == {"permission": "allow", "denials": [], "asks": [], "workId": "work-1"}
}

test_success_owned_edit if {
	d := hook.decision with input as with_hook({"tool": "Edit", "kind": "edit", "targets": [_target("write", "src/a.ts")]})
	d.permission == "allow"
}

test_fail_read_outside_pack if {
	d := hook.decision with input as with_hook({"targets": [_target("read", "src/c.ts")]})
	d.permission == "deny"
	[v.code | some v in d.denials] == ["HOOK_READ_OUTSIDE_PACK"]
}

test_fail_unowned_edit if {
	d := hook.decision with input as with_hook({"tool": "Write", "kind": "write", "targets": [_target("write", "src/b.ts")]})
	d.denials == [{
		"code": "HOOK_EDIT_NOT_OWNED",
		"message": "no change node of work work-1's accepted plan owns src/b.ts",
		"path": "tool_input.file_path",
		"remediation": "Submit a plan whose change node targets this file (submit_execution_plan), or edit it with apply_code_patch through controller_turn once the plan is accepted.",
		"rule": "mcpc.rules.hook[\"edit-ownership\"]",
		"severity": "error",
	}]
}

test_fail_own_file_without_work if {
	d := hook.decision with input as object.union(
		object.remove(input_doc, ["work"]),
		{"hook": {"host": "claude-code", "event": "PreToolUse", "tool": "Write", "kind": "write", "targets": [_target("write", ".claude/settings.json")]}},
	)
	d.permission == "deny"
	[v.code | some v in d.denials] == ["HOOK_OWN_FILE"]
}

test_success_no_work_allows_other_files if {
	d := hook.decision with input as object.union(
		object.remove(input_doc, ["work"]),
		{"hook": {"host": "claude-code", "event": "PreToolUse", "tool": "Edit", "kind": "edit", "targets": [_target("write", "src/z.ts")]}},
	)
	d.permission == "allow"
}

test_fail_secret_read_without_work if {
	d := hook.decision with input as object.union(object.remove(input_doc, ["work"]), {"hook": {"targets": [_target("read", "config/prod.env")]}})
	[v.code | some v in d.denials] == ["HOOK_PROTECTED_READ"]
}

_shell(argv) := with_hook({"tool": "Bash", "kind": "shell", "targets": [], "shell": {
	"command": concat(" ", argv), "parsed": true, "substitution": false,
	"segments": [{"argv": argv, "redirects": [], "inputs": []}],
}})

test_success_safe_command if {
	d := hook.decision with input as _shell(["git", "status"])
	d.permission == "allow"
}

test_fail_network_command if {
	d := hook.decision with input as _shell(["git", "push", "origin"])
	[v.code | some v in d.denials] == ["HOOK_SHELL_NETWORK"]
}

test_fail_write_command if {
	d := hook.decision with input as _shell(["sed", "-i", "s/a/b/", "src/a.ts"])
	[v.code | some v in d.denials] == ["HOOK_SHELL_WRITE"]
}

test_fail_unlisted_command_asks if {
	d := hook.decision with input as _shell(["python3", "x.py"])
	d.permission == "ask"
	[v.code | some v in d.asks] == ["HOOK_SHELL_UNLISTED"]
}

test_fail_substitution_asks if {
	d := hook.decision with input as with_hook({"tool": "Bash", "kind": "shell", "targets": [], "shell": {
		"command": "echo $(id)", "parsed": true, "substitution": true,
		"segments": [{"argv": ["echo", "$(id)"], "redirects": [], "inputs": []}],
	}})
	d.permission == "ask"
}

test_success_redirect_to_dev_null if {
	d := hook.decision with input as with_hook({"tool": "Bash", "kind": "shell", "targets": [_target("write", "/dev/null")], "shell": {
		"command": "ls > /dev/null", "parsed": true, "substitution": false,
		"segments": [{"argv": ["ls"], "redirects": ["/dev/null"], "inputs": []}],
	}})
	d.permission == "allow"
}

test_fail_unknown_work if {
	d := hook.decision with input as object.union(object.remove(input_doc, ["work"]), {"binding": {"requested": "work-9", "found": false, "active": ["work-1"]}})
	[v.code | some v in d.denials] == ["HOOK_WORK_NOT_FOUND"]
}

test_fail_ambiguous_work if {
	d := hook.decision with input as object.union(
		object.remove(input_doc, ["work"]),
		{"binding": {"requested": "", "found": false, "session": "s-1", "sessionWork": "", "via": "", "active": ["work-1", "work-2"]}},
	)
	d.denials == [{
		"code": "HOOK_WORK_AMBIGUOUS",
		"message": "2 works are active (work-1, work-2), this session is bound to none of them and MCPC_WORK_ID is not set",
		"path": "binding.session",
		"remediation": "Call controller_turn for your work from this session (an allowed answer binds the session to its workId), or set MCPC_WORK_ID in the host's environment to the workId this session works on.",
		"rule": "mcpc.rules.hook[\"work-ambiguous\"]",
		"severity": "error",
	}]
}

test_success_session_bound_among_several if {
	d := hook.decision with input as object.union(
		input_doc,
		{"binding": {"requested": "", "found": false, "session": "s-1", "sessionWork": "work-1", "via": "session", "active": ["work-1", "work-2"]}},
	)
	d == {"permission": "allow", "denials": [], "asks": [], "workId": "work-1"}
}

test_fail_ambiguous_write_of_own_file_stays_denied if {
	d := hook.decision with input as object.union(
		object.remove(input_doc, ["work"]),
		{
			"binding": {"requested": "", "found": false, "session": "", "sessionWork": "", "via": "", "active": ["work-1", "work-2"]},
			"hook": {"host": "cursor", "event": "preToolUse", "tool": "Write", "kind": "write", "targets": [_target("write", ".mcp.json")]},
		},
	)
	d.permission == "deny"
	{v.code | some v in d.denials} == {"HOOK_OWN_FILE", "HOOK_WORK_AMBIGUOUS"}
}

test_fail_protected_config_read_without_work if {
	d := hook.decision with input as object.union(object.remove(input_doc, ["work"]), {"hook": {"targets": [_target("read", ".ai/config/repo.json")]}})
	[v.code | some v in d.denials] == ["HOOK_PROTECTED_READ"]
}

test_fail_memory_write_is_own_file if {
	d := hook.decision with input as object.union(
		object.remove(input_doc, ["work"]),
		{"hook": {"host": "cursor", "event": "afterFileEdit", "tool": "afterFileEdit", "kind": "edit", "targets": [_target("write", ".ai/memory/notes.jsonl")]}},
	)
	[v.code | some v in d.denials] == ["HOOK_OWN_FILE"]
}

test_success_configured_safe_command if {
	d := hook.decision with input as object.union(_shell(["python3", "x.py"]), {"config": {"safeCommands": ["python3 x.py"]}})
	d == {"permission": "allow", "denials": [], "asks": [], "workId": "work-1"}
}

test_fail_configured_safe_command_still_network if {
	d := hook.decision with input as object.union(_shell(["curl", "https://example.com"]), {"config": {"safeCommands": ["curl"]}})
	[v.code | some v in d.denials] == ["HOOK_SHELL_NETWORK"]
}

# _shell_naming is a shell command with no work active whose argument
# file is named (not an existing file) in segment 0.
_shell_naming(argv, file) := object.union(object.remove(input_doc, ["work"]), {"hook": {
	"host": "claude-code", "event": "PreToolUse", "tool": "Bash", "kind": "shell",
	"targets": [object.union(_target("named", file), {"at": "hook.shell.segments[0].argv[2]", "segment": 0})],
	"shell": {
		"command": concat(" ", argv), "parsed": true, "substitution": false,
		"segments": [{"argv": argv, "redirects": [], "inputs": []}],
	},
}})

test_fail_copy_onto_own_file_without_work if {
	d := hook.decision with input as _shell_naming(["cp", "/tmp/x", ".ai/tmp/hook-sessions/s-9.json"], ".ai/tmp/hook-sessions/s-9.json")
	d.denials == [{
		"code": "HOOK_OWN_FILE",
		"message": ".ai/tmp/hook-sessions/s-9.json is one of mcpc's own files; \"cp /tmp/x .ai/tmp/hook-sessions/s-9.json\" may change it",
		"path": "hook.shell.segments[0].argv[2]",
		"remediation": "mcpc's files change only through mcpc (controller_turn) or by a person; leave them alone and continue through controller_turn.",
		"rule": "mcpc.rules.hook[\"own-files\"]",
		"severity": "error",
	}]
}

test_success_named_own_file_in_a_reading_command if {
	d := hook.decision with input as _shell_naming(["grep", "x", ".ai/tmp/missing.json"], ".ai/tmp/missing.json")
	d.permission == "allow"
}

test_success_copy_onto_other_file_without_work if {
	d := hook.decision with input as _shell_naming(["cp", "/tmp/x", "src/new.ts"], "src/new.ts")
	d.permission == "allow"
}
