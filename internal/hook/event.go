// Package hook judges a host's own tool use (Claude Code's Read, Edit,
// Write, Bash; Cursor's file reads, shell and edits) against the
// workspace's active work: it turns the host's hook event into facts, has
// the embedded policy (mcpc.hook) decide, answers in the host's own format
// and records the reads and edits that happened. Any error denies.
package hook

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Host names a supported host.
type Host string

// Supported hosts.
const (
	ClaudeCode Host = "claude-code"
	Cursor     Host = "cursor"
)

// Tool kinds, as policy sees them.
const (
	kindRead  = "read"
	kindEdit  = "edit"
	kindWrite = "write"
	kindShell = "shell"
	// kindList lists names under a folder (Glob, LS): like ls, inside the
	// worktree it names, outside it reads.
	kindList = "list"
	// kindExternal is a tool of another MCP server: what it reads and
	// writes the hook cannot see.
	kindExternal = "external"
	kindOther    = "other"
)

// event is a host event reduced to what mcpc judges.
type event struct {
	Name    string   // the host's event name (PreToolUse, beforeReadFile, ...)
	Post    bool     // the tool already ran: record, do not judge
	Failed  bool     // the tool ran and failed: nothing happened to record
	Tool    string   // the host's tool name
	Kind    string   // read, edit, write, shell, list, external, other
	Paths   []string // the files the tool names, as the host sent them
	At      string   // where in the host's event the paths are
	Command string   // the shell command
	Cwd     string   // the directory relative paths and commands start from
	Roots   []string // the host's workspace roots (Cursor)
	Session string   // the host's session (Claude Code session_id, Cursor conversation_id)
	// Turn is the answer of an mcpc controller_turn call the host made
	// (PostToolUse of mcp__mcpc__controller_turn, Cursor afterMCPExecution):
	// the session is bound to the work it names.
	Turn json.RawMessage
}

// claudeEvent is a Claude Code PreToolUse/PostToolUse hook input.
type claudeEvent struct {
	HookEventName string          `json:"hook_event_name"`
	SessionID     string          `json:"session_id"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	ToolResponse  json.RawMessage `json:"tool_response"`
	Cwd           string          `json:"cwd"`
}

// toolInput is the union of the file and command fields host tools take.
type toolInput struct {
	FilePath         string `json:"file_path"`
	NotebookPath     string `json:"notebook_path"`
	TargetNotebook   string `json:"target_notebook"`
	Path             string `json:"path"`
	TargetFile       string `json:"target_file"`
	Command          string `json:"command"`
	WorkingDirectory string `json:"working_directory"`
	Patch            string `json:"patch"`
	Input            string `json:"input"`
	Pattern          string `json:"pattern"`
	GlobPattern      string `json:"glob_pattern"`
	TargetDirectory  string `json:"target_directory"`
}

// listed is what a listing tool names: its folder (the working directory
// by default) and, when it climbs or starts at a root, its pattern's.
func (ti *toolInput) listed() []string {
	dir := cmp.Or(ti.Path, ti.TargetDirectory, ".")
	out := []string{dir}
	for _, p := range []string{ti.Pattern, ti.GlobPattern} {
		if filepath.IsAbs(p) || strings.HasPrefix(p, "~") || slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "..") {
			out = append(out, p)
		}
	}
	return out
}

// file is the one file a tool input names, and the field that names it.
func (ti *toolInput) file() (string, string) {
	for _, f := range []struct{ at, v string }{
		{"tool_input.file_path", ti.FilePath}, {"tool_input.path", ti.Path}, {"tool_input.target_file", ti.TargetFile},
		{"tool_input.notebook_path", ti.NotebookPath}, {"tool_input.target_notebook", ti.TargetNotebook},
	} {
		if f.v != "" {
			return f.v, f.at
		}
	}
	return "", ""
}

// decodeToolInput reads a tool_input that is an object or, as some hosts
// send it, a string holding one.
func decodeToolInput(raw json.RawMessage, ti *toolInput) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil
		}
		raw = json.RawMessage(s)
	}
	if err := json.Unmarshal(raw, ti); err != nil {
		return fmt.Errorf("tool_input: %w", err)
	}
	return nil
}

// isControllerTurn reports whether a host tool name is mcpc's own MCP tool
// (Claude Code: mcp__<server>__controller_turn; Cursor: controller_turn,
// MCP:controller_turn, or the tool prefixed with its server's name).
func isControllerTurn(tool string) bool {
	rest, ok := strings.CutSuffix(tool, "controller_turn")
	return ok && (rest == "" || strings.HasSuffix(rest, "__") || strings.HasSuffix(rest, ":") || strings.HasSuffix(rest, "-") || strings.HasSuffix(rest, "_"))
}

func parseClaude(raw []byte) (*event, error) {
	var in claudeEvent
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("the Claude Code hook event is not JSON: %w", err)
	}
	switch in.HookEventName {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure":
	default:
		return nil, fmt.Errorf("unsupported Claude Code hook event %q (wire mcpc hook to PreToolUse and PostToolUse)", in.HookEventName)
	}
	var ti toolInput
	if err := decodeToolInput(in.ToolInput, &ti); err != nil {
		return nil, err
	}
	ev := &event{Name: in.HookEventName, Post: in.HookEventName != "PreToolUse", Failed: in.HookEventName == "PostToolUseFailure",
		Tool: in.ToolName, Cwd: in.Cwd, Kind: kindOther, Session: in.SessionID}
	switch in.ToolName {
	case "Read":
		ev.Kind, ev.Paths, ev.At = kindRead, []string{ti.FilePath}, "tool_input.file_path"
	case "Grep":
		// Grep reads every file under its path (the working directory by default).
		p := ti.Path
		if p == "" {
			p = "."
		}
		ev.Kind, ev.Paths, ev.At = kindRead, []string{p}, "tool_input.path"
	case "Edit", "MultiEdit":
		ev.Kind, ev.Paths, ev.At = kindEdit, []string{ti.FilePath}, "tool_input.file_path"
	case "Write":
		ev.Kind, ev.Paths, ev.At = kindWrite, []string{ti.FilePath}, "tool_input.file_path"
	case "NotebookEdit":
		ev.Kind, ev.Paths, ev.At = kindEdit, []string{ti.NotebookPath}, "tool_input.notebook_path"
	case "NotebookRead":
		ev.Kind, ev.Paths, ev.At = kindRead, []string{ti.NotebookPath}, "tool_input.notebook_path"
	case "Glob", "LS":
		ev.Kind, ev.Paths, ev.At = kindList, ti.listed(), "tool_input.path"
	case "Bash":
		ev.Kind, ev.Command = kindShell, ti.Command
	default:
		if ev.Post && !ev.Failed && isControllerTurn(in.ToolName) {
			ev.Turn = in.ToolResponse
		}
		file, at := ti.file()
		switch {
		case strings.HasPrefix(in.ToolName, "mcp__") && !isControllerTurn(in.ToolName):
			ev.Kind = kindExternal
		case !claudeOtherTools[in.ToolName] && file != "":
			// a tool the hook does not know that names a file is judged as
			// writing it (fail closed), as Cursor's are
			ev.Kind, ev.Paths, ev.At = kindWrite, []string{file}, at
		}
	}
	return ev, nil
}

// claudeOtherTools are Claude Code's tools that read and write no file
// of the workspace by a path the hook could judge (subagents' own tool uses
// come to the hook as events of their own).
var claudeOtherTools = map[string]bool{
	"Task": true, "TodoWrite": true, "BashOutput": true, "KillShell": true, "KillBash": true, "ExitPlanMode": true,
	"WebFetch": true, "WebSearch": true, "Skill": true, "SlashCommand": true, "AskUserQuestion": true,
	"ListMcpResourcesTool": true, "ReadMcpResourceTool": true,
}

// cursorEvent is a Cursor hooks.json event input: the common fields and
// those of the events mcpc handles.
type cursorEvent struct {
	HookEventName  string          `json:"hook_event_name"`
	ConversationID string          `json:"conversation_id"`
	SessionID      string          `json:"session_id"`
	FilePath       string          `json:"file_path"`
	Command        string          `json:"command"`
	Cwd            string          `json:"cwd"`
	WorkspaceRoots []string        `json:"workspace_roots"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolOutput     json.RawMessage `json:"tool_output"`
	ResultJSON     json.RawMessage `json:"result_json"`
}

// cursorTools classifies the tools of Cursor's generic preToolUse and
// postToolUse events. A tool not listed that names a file is judged as
// writing it (fail closed); one that names none is other.
var cursorTools = map[string]string{
	"Read": kindRead, "Grep": kindRead, "SemanticSearch": kindRead, "CodebaseSearch": kindRead,
	"Write":      kindWrite,
	"StrReplace": kindEdit, "Edit": kindEdit, "MultiEdit": kindEdit, "EditNotebook": kindEdit, "Delete": kindEdit, "ApplyPatch": kindEdit,
	"Shell": kindShell,
	"Glob":  kindList, "LS": kindList, "Task": kindOther, "TodoWrite": kindOther, "ReadLints": kindOther,
	"WebSearch": kindOther, "WebFetch": kindOther, "AskQuestion": kindOther, "CreatePlan": kindOther,
	// The names Cursor's agent tools had before (its transcripts still use them).
	"read_file": kindRead, "grep_search": kindRead, "codebase_search": kindRead,
	"edit_file": kindEdit, "search_replace": kindEdit, "delete_file": kindEdit, "apply_patch": kindEdit, "edit_notebook": kindEdit,
	"run_terminal_cmd": kindShell,
	"list_dir":         kindList, "file_search": kindOther, "glob_file_search": kindList, "web_search": kindOther, "todo_write": kindOther,
}

func parseCursor(raw []byte) (*event, error) {
	var in cursorEvent
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("the Cursor hook event is not JSON: %w", err)
	}
	session := in.ConversationID
	if session == "" {
		session = in.SessionID
	}
	ev := &event{Name: in.HookEventName, Tool: in.HookEventName, Cwd: in.Cwd, Roots: in.WorkspaceRoots, Session: session, Kind: kindOther}
	switch in.HookEventName {
	case "beforeReadFile":
		ev.Kind, ev.Paths, ev.At = kindRead, []string{in.FilePath}, "file_path"
	case "beforeShellExecution":
		ev.Kind, ev.Command = kindShell, in.Command
	case "afterShellExecution":
		ev.Kind, ev.Command, ev.Post = kindShell, in.Command, true
	case "afterFileEdit":
		ev.Kind, ev.Paths, ev.At, ev.Post = kindEdit, []string{in.FilePath}, "file_path", true
	case "afterMCPExecution":
		ev.Tool, ev.Post = in.ToolName, true
		if isControllerTurn(in.ToolName) {
			ev.Turn = in.ResultJSON
		}
	case "preToolUse", "postToolUse", "postToolUseFailure":
		ev.Post, ev.Failed = in.HookEventName != "preToolUse", in.HookEventName == "postToolUseFailure"
		if err := cursorTool(ev, &in); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unsupported Cursor hook event %q (wire mcpc hook to preToolUse, postToolUse, beforeReadFile, beforeShellExecution, afterShellExecution, afterFileEdit and afterMCPExecution)", in.HookEventName)
	}
	if ev.Cwd == "" && len(in.WorkspaceRoots) > 0 {
		ev.Cwd = in.WorkspaceRoots[0]
	}
	return ev, nil
}

// cursorTool reads the tool of a preToolUse/postToolUse event.
func cursorTool(ev *event, in *cursorEvent) error {
	ev.Tool = in.ToolName
	if in.ToolName == "" {
		// A tool use the hook cannot name cannot be judged.
		return fmt.Errorf("the Cursor %s event names no tool_name", in.HookEventName)
	}
	var ti toolInput
	if err := decodeToolInput(in.ToolInput, &ti); err != nil {
		return err
	}
	if strings.HasPrefix(in.ToolName, "MCP:") || strings.HasPrefix(in.ToolName, "mcp_") || isControllerTurn(in.ToolName) {
		if isControllerTurn(in.ToolName) {
			if ev.Post && !ev.Failed {
				ev.Turn = in.ToolOutput
			}
		} else {
			ev.Kind = kindExternal
		}
		return nil
	}
	kind, known := cursorTools[in.ToolName]
	file, at := ti.file()
	switch {
	case !known && file != "":
		kind = kindWrite
	case !known:
		kind = kindOther
	}
	ev.Kind = kind
	switch kind {
	case kindShell:
		ev.Command = ti.Command
		if ti.WorkingDirectory != "" {
			ev.Cwd = ti.WorkingDirectory
		}
	case kindList:
		ev.Paths, ev.At = ti.listed(), "tool_input.path"
	case kindRead:
		if file == "" && in.ToolName != "Read" && in.ToolName != "read_file" {
			// Grep and the searches read everything under their path, the workspace by default.
			file, at = ".", "tool_input.path"
		}
		ev.Paths, ev.At = []string{file}, at
	case kindEdit, kindWrite:
		if (in.ToolName == "ApplyPatch" || in.ToolName == "apply_patch") && file == "" {
			text := ti.Patch
			if text == "" {
				text = ti.Input
			}
			ev.Paths, ev.At = patchFiles(text), "tool_input.patch"
			if len(ev.Paths) == 0 {
				return fmt.Errorf("the Cursor ApplyPatch event names no file")
			}
			return nil
		}
		ev.Paths, ev.At = []string{file}, at
	}
	return nil
}

// patchFiles lists the files an apply_patch envelope touches (its
// "*** Add File:", "*** Update File:", "*** Delete File:" and "*** Move to:"
// lines).
func patchFiles(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), p); ok && strings.TrimSpace(f) != "" {
				out = append(out, strings.TrimSpace(f))
			}
		}
	}
	return out
}

// relativeTo makes a host path (usually absolute) relative to the
// workspace root as pathscope expects; a path outside the root stays as
// the host sent it, and pathscope reports why it cannot be used.
func relativeTo(root, cwd, p string) string {
	if p == "" {
		return p
	}
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	if !filepath.IsAbs(p) {
		return p
	}
	rel, err := filepath.Rel(root, filepath.Clean(p))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return p
	}
	return filepath.ToSlash(rel)
}
