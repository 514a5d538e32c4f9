package mcpc.lib.protected_test

import data.mcpc.lib.protected

test_success_each_protected_root if {
	every path in [
		".ai/config/repo.json",
		".ai/graph/seed/policies/migration_rules.jsonl",
		".ai/memory/2026-11-01.jsonl",
		".ai/policies/testing.md",
		".ai/inbox/request.json",
		".ai/tmp/works/w/context-pack.json",
		".orchestration/agent_trace.jsonl",
		".mcp.json",
		".claude/settings.json",
		".cursor/mcp.json",
		".vscode/mcp.json",
		".ai/config",
	] {
		protected.is_protected(path)
	}
}

test_success_spellings_of_the_same_file if {
	every path in [
		".AI/Config/repo.json",
		"./.ai//config/repo.json",
		".ai/./graph/seed/x.jsonl",
		".MCP.JSON",
	] {
		protected.is_protected(path)
	}
}

test_success_other_files_are_not_protected if {
	every path in [
		"src/.ai/config/repo.json",
		".ai/graph/index.db",
		".vscode/settings.json",
		".aі/config/repo.json", # Cyrillic i: another file
		"docs/.claude.md",
		"mcp.json",
	] {
		not protected.is_protected(path)
	}
}

test_success_reason if {
	protected.reason(".ai/config/repo.json") == "mcpc's configuration (validation commands, budgets): an agent must not change the rules it runs under"
}
