package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// ownFiles are files of each kind mcpc owns (policies/data/protected.json),
// as a workspace has them.
var ownFiles = []string{
	".ai/config/repo.json",
	".ai/graph/seed/policies/migration_rules.jsonl",
	".ai/memory/2026-11-01.jsonl",
	".ai/policies/testing.md",
	".ai/inbox/request-1.json",
	".orchestration/agent_trace.jsonl",
	".mcp.json",
	".claude/settings.json",
	".cursor/mcp.json",
	".vscode/mcp.json",
}

// spellings are other names an agent may try for the same file.
func spellings(file string) []string {
	names := []string{
		file,
		"./" + file,
		strings.ToUpper(file[:3]) + file[3:], // the same file on a case-insensitive filesystem
	}
	if dir, base := filepath.Split(file); dir != "" {
		names = append(names,
			strings.Replace(file, "/", "//", 1),
			dir+"../"+filepath.Base(filepath.Clean(dir))+"/"+base)
	}
	return names
}

// TestOwnFilesOutOfReach: mcpc's own files, each baited to rank for the
// task, never enter a pack, and no verb reads, searches, patches or
// scratch-writes them under any spelling, nor does a plan target them,
// whether the plan is new or already accepted.
func TestOwnFilesOutOfReach(t *testing.T) {
	ws := newWorkspace(t)
	original := map[string][]byte{}
	var lexemes []string
	for i, file := range ownFiles {
		line, lexeme := bait(i)
		lexemes = append(lexemes, lexeme)
		content := []byte(line)
		if file == ".ai/config/repo.json" {
			raw, err := os.ReadFile(filepath.Join(ws, file))
			must(t, err)
			content = raw // the validation config must stay valid; the lexeme below ranks it by path
		}
		if file == ".ai/graph/seed/policies/migration_rules.jsonl" {
			content = append(content, `{"id":"adp-alert-to-sdf-alert","status":"unknown"}`+"\n"...)
		}
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(ws, file)), 0o755))
		must(t, os.WriteFile(filepath.Join(ws, file), content, 0o644))
		original[file] = content
	}
	roomyBudget(t, ws)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, append(lexemes, "adp-alert", "config", "repo")...)
	esc := a.turn("escalate", map[string]any{"need": strings.Join(lexemes, " ") + " migration rules memory policies inbox mcp settings"})
	mustAllow(t, esc)
	excluded := toJSON(init.ContextPack["excluded"]) + toJSON(esc.ContextPack["excluded"])
	for _, file := range ownFiles {
		if slices.Contains(packFiles(init), file) || slices.Contains(packFiles(esc), file) {
			t.Errorf("%s entered the pack", file)
		}
		// Retrieval proposed it (its lexeme ranks it) and policy left it
		// out, saying why; .vscode/ is never indexed and repo.json holds no
		// lexeme.
		if !strings.Contains(excluded, `"`+file+`"`) && file != ".vscode/mcp.json" && file != ".ai/config/repo.json" {
			t.Errorf("%s is not among the excluded files with a reason: %s", file, excluded)
		}
	}

	// A new plan cannot target them.
	for _, target := range []string{".ai/graph/seed/policies/migration_rules.jsonl", "./.ai//graph/seed/policies/migration_rules.jsonl", ".AI/config/repo.json", ".mcp.json"} {
		plan := demo.Plan(envelopeOf(esc), true)
		plan["nodes"].([]any)[0].(map[string]any)["targetFile"] = target
		mustDeny(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}), "PROTECTED_PATH")
	}
	// Nor can an accepted one reach them.
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(esc), true)}))
	for _, file := range ownFiles {
		for _, name := range spellings(file) {
			mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": name}), "PROTECTED_PATH")
			mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": name,
				"edits": []any{map[string]any{"op": "replace_text", "find": "unknown", "replace": "approved"}}}), "PROTECTED_PATH")
			mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": name,
				"edits": []any{alertCodemod}}), "PROTECTED_PATH")
			mustDeny(t, a.turn("lookup_symbol_definition", map[string]any{"symbol": "x", "targetFile": name}), "PROTECTED_PATH")
		}
		mustDeny(t, a.turn("search_codebase_text", map[string]any{"pattern": "unknown", "files": []string{file}}), "PROTECTED_PATH")
		up := strings.Repeat("../", 5) + file // from .ai/tmp/work/<id>/scratch
		mustDeny(t, a.turn("write_scratch_file", map[string]any{"relativePath": up, "content": "{}"}), "SCRATCH_SCOPE_VIOLATION")
	}
	search := a.turn("search_codebase_text", map[string]any{"pattern": "probe"})
	mustAllow(t, search)
	if m, _ := search.Result["matches"].([]any); len(m) > 0 {
		t.Errorf("a pack-wide search reached mcpc's own files: %v", m)
	}
	for file, want := range original {
		got, err := os.ReadFile(filepath.Join(ws, file))
		must(t, err)
		if !bytes.Equal(got, want) {
			t.Errorf("%s changed:\n%s", file, got)
		}
	}
}
