package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

type initParams struct {
	*rootParams
	client  string
	command string
}

func newInitCommand(root *rootParams) *cobra.Command {
	p := &initParams{rootParams: root, command: "mcpc"}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Wire mcpc into an MCP client: its server entry, its hooks, a starter .ai/config/repo.json",
		Long: `Writes, merging with what is there (other servers, hooks and unknown keys are
kept; running it again changes nothing):
  claude-code  .mcp.json (mcpServers.mcpc) and .claude/settings.json
               (PreToolUse and PostToolUse hooks calling mcpc hook claude-code)
  cursor       .cursor/mcp.json (mcpServers.mcpc) and .cursor/hooks.json
               (preToolUse, postToolUse, beforeReadFile, afterMCPExecution calling
               mcpc hook cursor; failClosed on the events that can refuse)
  vscode       .vscode/mcp.json (servers.mcpc); VS Code has no hooks here
and .ai/config/repo.json when missing. Prints the files it changed as JSON.`,
		RunE: func(cmd *cobra.Command, _ []string) error { return p.run(cmd) },
	}
	cmd.Flags().StringVar(&p.client, "client", "", "claude-code, cursor or vscode (required)")
	cmd.Flags().StringVar(&p.command, "command", p.command, "how the client starts mcpc (a name on PATH or an absolute path)")
	_ = cmd.MarkFlagRequired("client")
	return cmd
}

// claudeToolMatcher is every Claude Code tool the hook judges: the file
// and shell tools, the listings and web tools, and every MCP server's
// tools (another server's may read or write anything; mcpc's own is
// allowed).
const claudeToolMatcher = "Read|Grep|Glob|LS|Edit|MultiEdit|Write|NotebookEdit|NotebookRead|Bash|WebFetch|WebSearch|mcp__.*"

// claudePostMatcher is what PostToolUse records: the same tools, and
// mcpc's own MCP tool by name (mcp__.* holds it too), whose allowed answers
// bind the session to its work.
const claudePostMatcher = claudeToolMatcher + "|mcp__mcpc__controller_turn"

// cursorEvents are the Cursor hook events mcpc hook handles. preToolUse
// and postToolUse carry every tool (Read, Grep, Write, StrReplace, Delete,
// ApplyPatch, Shell, ...; a tool mcpc does not know that names a file is
// judged as writing it); beforeReadFile also covers reads that are no tool
// call (attachments); afterMCPExecution reports controller_turn answers,
// which bind the conversation to its work. failClosed makes Cursor refuse
// the tool use when the hook itself fails.
var cursorEvents = []struct {
	name       string
	failClosed bool
}{
	{"preToolUse", true}, {"postToolUse", false}, {"beforeReadFile", true}, {"afterMCPExecution", false},
}

func (p *initParams) run(cmd *cobra.Command) error {
	ws, err := filepath.Abs(p.workspace)
	if err != nil {
		return err
	}
	type change struct {
		File    string `json:"file"`
		Changed bool   `json:"changed"`
	}
	var changes []change
	apply := func(rel string, edit func(doc map[string]any)) error {
		changed, err := mergeJSONFile(filepath.Join(ws, filepath.FromSlash(rel)), edit)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		changes = append(changes, change{File: rel, Changed: changed})
		return nil
	}
	hookCmd := func(host string) string { return p.command + " hook " + host }
	switch p.client {
	case "claude-code":
		err = apply(".mcp.json", func(doc map[string]any) {
			setServer(doc, "mcpServers", map[string]any{"command": p.command, "args": []any{"serve", "--workspace", "."}})
		})
		if err == nil {
			err = apply(".claude/settings.json", func(doc map[string]any) {
				hooks := object(doc, "hooks")
				ours := func(entry map[string]any) bool {
					for _, h := range list(entry["hooks"]) {
						if m, ok := h.(map[string]any); ok && m["command"] == hookCmd("claude-code") {
							return true
						}
					}
					return false
				}
				for ev, matcher := range map[string]string{"PreToolUse": claudeToolMatcher, "PostToolUse": claudePostMatcher} {
					addHook(hooks, ev, map[string]any{"matcher": matcher,
						"hooks": []any{map[string]any{"type": "command", "command": hookCmd("claude-code")}}}, ours)
				}
			})
		}
	case "cursor":
		err = apply(".cursor/mcp.json", func(doc map[string]any) {
			setServer(doc, "mcpServers", map[string]any{"command": p.command, "args": []any{"serve", "--workspace", "${workspaceFolder}"}})
		})
		if err == nil {
			err = apply(".cursor/hooks.json", func(doc map[string]any) {
				if _, ok := doc["version"]; !ok {
					doc["version"] = json.Number("1")
				}
				hooks := object(doc, "hooks")
				ours := func(entry map[string]any) bool { return entry["command"] == hookCmd("cursor") }
				for _, ev := range cursorEvents {
					entry := map[string]any{"command": hookCmd("cursor")}
					if ev.failClosed {
						entry["failClosed"] = true
					}
					addHook(hooks, ev.name, entry, ours)
				}
				// Events earlier versions wired that preToolUse and
				// postToolUse now cover: judging a command twice would ask
				// the person twice, recording an edit twice would double it.
				for _, ev := range []string{"beforeShellExecution", "afterShellExecution", "afterFileEdit"} {
					removeHook(hooks, ev, ours)
				}
			})
		}
	case "vscode":
		err = apply(".vscode/mcp.json", func(doc map[string]any) {
			setServer(doc, "servers", map[string]any{"type": "stdio", "command": p.command, "args": []any{"serve", "--workspace", "${workspaceFolder}"}})
		})
	default:
		return fmt.Errorf("--client must be claude-code, cursor or vscode, not %q", p.client)
	}
	if err != nil {
		return err
	}
	repo := filepath.Join(ws, ".ai", "config", "repo.json")
	created := false
	if _, err := os.Lstat(repo); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(repo), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(repo, []byte(starterRepoConfig), 0o644); err != nil {
			return err
		}
		created = true
	} else if err != nil {
		return err
	}
	changes = append(changes, change{File: ".ai/config/repo.json", Changed: created})
	return writeJSON(cmd.OutOrStdout(), map[string]any{"client": p.client, "files": changes})
}

// starterRepoConfig is a repo.json to edit: validation commands are the
// only commands mcpc runs for an agent (docs/configuration.md).
const starterRepoConfig = `{
  "validation": {
    "commands": {
      "unit-tests": {
        "argv": ["make", "test"],
        "timeoutSec": 600,
        "covers": ["**"]
      }
    }
  }
}
`

// mergeJSONFile reads a JSON object file (absent: empty), applies edit and
// writes it back only when it changed. Numbers are kept as written.
func mergeJSONFile(path string, edit func(doc map[string]any)) (bool, error) {
	doc := map[string]any{}
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return false, err
	default:
		dec := json.NewDecoder(bytes.NewReader(old))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return false, fmt.Errorf("not a JSON object, left as it is: %w", err)
		}
		if doc == nil {
			doc = map[string]any{}
		}
	}
	before, _ := json.Marshal(doc)
	edit(doc)
	after, _ := json.Marshal(doc)
	if err == nil && bytes.Equal(before, after) {
		return false, nil
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	return true, os.WriteFile(path, append(out, '\n'), 0o644)
}

// object returns doc[key] as an object, making it when absent or not one.
func object(doc map[string]any, key string) map[string]any {
	if m, ok := doc[key].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	doc[key] = m
	return m
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// setServer sets the mcpc entry of a client's server map; other servers stay.
func setServer(doc map[string]any, key string, entry map[string]any) {
	servers := object(doc, key)
	if old, ok := servers["mcpc"].(map[string]any); ok {
		for k, v := range entry { // keep keys the person added (env, ...)
			old[k] = v
		}
		return
	}
	servers["mcpc"] = entry
}

// addHook appends entry to hooks[event] unless an entry already calls mcpc,
// whose keys it then brings up to date (a matcher earlier versions wrote);
// keys the person added stay.
func addHook(hooks map[string]any, event string, entry map[string]any, ours func(map[string]any) bool) {
	entries := list(hooks[event])
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok && ours(m) {
			for k, v := range entry {
				m[k] = v
			}
			return
		}
	}
	hooks[event] = append(entries, entry)
}

// removeHook drops mcpc's entries from hooks[event], and the event when
// nothing else is left in it.
func removeHook(hooks map[string]any, event string, ours func(map[string]any) bool) {
	entries, ok := hooks[event].([]any)
	if !ok {
		return
	}
	kept := []any{}
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok && ours(m) {
			continue
		}
		kept = append(kept, e)
	}
	switch {
	case len(kept) == len(entries):
	case len(kept) == 0:
		delete(hooks, event)
	default:
		hooks[event] = kept
	}
}
