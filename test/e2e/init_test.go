package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func readJSONFile(t *testing.T, path string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	must(t, err)
	var doc map[string]any
	must(t, json.Unmarshal(raw, &doc))
	return doc
}

// TestInit wires each client into a workspace that already has other
// servers and hooks: they stay, and a second run changes nothing.
func TestInit(t *testing.T) {
	for _, tc := range []struct {
		note, client, server, key string
		hooks                     string
		existing                  map[string]string
	}{
		{note: "claude-code", client: "claude-code", server: ".mcp.json", key: "mcpServers", hooks: ".claude/settings.json",
			existing: map[string]string{
				".mcp.json":             `{"mcpServers": {"other": {"command": "other-server"}}, "x-unknown": 1}`,
				".claude/settings.json": `{"permissions": {"allow": ["Bash(ls)"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]}}`,
			}},
		{note: "cursor", client: "cursor", server: ".cursor/mcp.json", key: "mcpServers", hooks: ".cursor/hooks.json",
			// An earlier mcpc wired beforeShellExecution and afterFileEdit;
			// preToolUse and postToolUse now cover them.
			existing: map[string]string{".cursor/hooks.json": `{"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}, {"command": "mcpc hook cursor"}], "beforeShellExecution": [{"command": "mcpc hook cursor"}]}}`}},
		{note: "vscode", client: "vscode", server: ".vscode/mcp.json", key: "servers",
			existing: map[string]string{".vscode/mcp.json": `{"inputs": [], "servers": {"other": {"type": "stdio", "command": "x"}}}`}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ws := t.TempDir()
			for name, body := range tc.existing {
				must(t, os.MkdirAll(filepath.Dir(filepath.Join(ws, name)), 0o755))
				must(t, os.WriteFile(filepath.Join(ws, name), []byte(body), 0o644))
			}
			out, err := runCLI(ws, "init", "--client", tc.client)
			if err != nil {
				t.Fatalf("mcpc init: %v\n%s", err, out)
			}
			servers := readJSONFile(t, filepath.Join(ws, tc.server))[tc.key].(map[string]any)
			entry, ok := servers["mcpc"].(map[string]any)
			if !ok || entry["command"] != "mcpc" {
				t.Fatalf("%s has no mcpc server: %v", tc.server, servers)
			}
			if args, _ := entry["args"].([]any); len(args) == 0 || args[0] != "serve" {
				t.Errorf("mcpc server args = %v", entry["args"])
			}
			if _, ok := servers["other"]; tc.key != "" && strings.Contains(tc.existing[tc.server], "other") && !ok {
				t.Errorf("the other server was dropped: %v", servers)
			}
			if tc.hooks != "" {
				raw, err := os.ReadFile(filepath.Join(ws, tc.hooks))
				must(t, err)
				if !strings.Contains(string(raw), "mcpc hook "+tc.client) {
					t.Errorf("%s does not call mcpc hook: %s", tc.hooks, raw)
				}
				for _, kept := range []string{"audit.sh", "./format.sh", "Bash(ls)"} {
					if strings.Contains(tc.existing[tc.hooks], kept) && !strings.Contains(string(raw), kept) {
						t.Errorf("%s lost %s: %s", tc.hooks, kept, raw)
					}
				}
			}
			wantHookWiring(t, ws, tc.client)
			if _, err := os.Stat(filepath.Join(ws, ".ai", "config", "repo.json")); err != nil {
				t.Errorf("no starter repo.json: %v", err)
			}
			if tc.client == "claude-code" && readJSONFile(t, filepath.Join(ws, ".mcp.json"))["x-unknown"] != float64(1) {
				t.Errorf("an unknown key of .mcp.json was dropped")
			}
			// Idempotent: the second run changes no file.
			snapshot := map[string]string{}
			for _, f := range []string{tc.server, tc.hooks, ".ai/config/repo.json"} {
				if f != "" {
					b, _ := os.ReadFile(filepath.Join(ws, f))
					snapshot[f] = string(b)
				}
			}
			out, err = runCLI(ws, "init", "--client", tc.client)
			if err != nil {
				t.Fatalf("second mcpc init: %v\n%s", err, out)
			}
			if strings.Contains(out, `"changed": true`) {
				t.Errorf("the second run reports changes: %s", out)
			}
			for f, before := range snapshot {
				if b, _ := os.ReadFile(filepath.Join(ws, f)); string(b) != before {
					t.Errorf("the second run changed %s", f)
				}
			}
		})
	}
}

// wantHookWiring checks the events each host's hooks file wires to mcpc
// hook: Claude Code's PreToolUse judges the file and shell tools and its
// PostToolUse also sees mcpc's own MCP tool (whose answers bind the
// session); Cursor's preToolUse/postToolUse carry every tool, its
// refusing events fail closed, and events earlier versions wired are gone.
func wantHookWiring(t *testing.T, ws, client string) {
	t.Helper()
	switch client {
	case "claude-code":
		hooks := readJSONFile(t, filepath.Join(ws, ".claude/settings.json"))["hooks"].(map[string]any)
		for ev, want := range map[string][]string{"PreToolUse": {"Read", "Edit", "Write", "Bash"}, "PostToolUse": {"Read", "Bash", "mcp__mcpc__controller_turn"}} {
			var matcher string
			for _, e := range hooks[ev].([]any) {
				if strings.Contains(fmtJSON(e), "mcpc hook claude-code") {
					matcher, _ = e.(map[string]any)["matcher"].(string)
				}
			}
			for _, tool := range want {
				if !slices.Contains(strings.Split(matcher, "|"), tool) {
					t.Errorf("%s matcher %q lacks %s", ev, matcher, tool)
				}
			}
		}
	case "cursor":
		hooks := readJSONFile(t, filepath.Join(ws, ".cursor/hooks.json"))["hooks"].(map[string]any)
		for ev, failClosed := range map[string]bool{"preToolUse": true, "postToolUse": false, "beforeReadFile": true, "afterMCPExecution": false} {
			entries, _ := hooks[ev].([]any)
			if len(entries) != 1 {
				t.Errorf("%s: %d entries, want mcpc's one: %v", ev, len(entries), hooks[ev])
				continue
			}
			e := entries[0].(map[string]any)
			if e["command"] != "mcpc hook cursor" || (e["failClosed"] == true) != failClosed || e["matcher"] != nil {
				t.Errorf("%s entry %v, want mcpc hook cursor for every tool, failClosed %v", ev, e, failClosed)
			}
		}
		if _, ok := hooks["beforeShellExecution"]; ok {
			t.Errorf("the earlier beforeShellExecution entry stays: %v", hooks)
		}
		if got := fmtJSON(hooks["afterFileEdit"]); got != `[{"command":"./format.sh"}]` {
			t.Errorf("afterFileEdit = %s, want only the person's ./format.sh", got)
		}
	}
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
