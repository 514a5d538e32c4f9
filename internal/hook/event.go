// Package hook judges a host's own tool use (Claude Code's Read, Edit,
// Write, Bash; Cursor's file reads, shell and edits) against the
// workspace's active work: it turns the host's hook event into facts, has
// the embedded policy (mcpc.hook) decide, answers in the host's own format
// and records the reads and edits that happened. Any error denies.
package hook

import (
	"encoding/json"
	"fmt"
	"path/filepath"
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
	kindOther = "other"
)

// event is a host event reduced to what mcpc judges.
type event struct {
	Name    string   // the host's event name (PreToolUse, beforeReadFile, ...)
	Post    bool     // the tool already ran: record, do not judge
	Tool    string   // the host's tool name
	Kind    string   // read, edit, write, shell, other
	Paths   []string // the files the tool names, as the host sent them
	At      string   // where in the host's event the paths are
	Command string   // the shell command
	Cwd     string   // the directory relative paths and commands start from
	Roots   []string // the host's workspace roots (Cursor)
}

// claudeEvent is a Claude Code PreToolUse/PostToolUse hook input.
type claudeEvent struct {
	HookEventName string          `json:"hook_event_name"`
	ToolName      string          `json:"tool_name"`
	ToolInput     json.RawMessage `json:"tool_input"`
	Cwd           string          `json:"cwd"`
}

type claudeToolInput struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	Command      string `json:"command"`
}

func parseClaude(raw []byte) (*event, error) {
	var in claudeEvent
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("the Claude Code hook event is not JSON: %w", err)
	}
	switch in.HookEventName {
	case "PreToolUse", "PostToolUse":
	default:
		return nil, fmt.Errorf("unsupported Claude Code hook event %q (wire mcpc hook to PreToolUse and PostToolUse)", in.HookEventName)
	}
	var ti claudeToolInput
	if len(in.ToolInput) > 0 {
		if err := json.Unmarshal(in.ToolInput, &ti); err != nil {
			return nil, fmt.Errorf("tool_input: %w", err)
		}
	}
	ev := &event{Name: in.HookEventName, Post: in.HookEventName == "PostToolUse", Tool: in.ToolName, Cwd: in.Cwd, Kind: kindOther}
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
	case "Bash":
		ev.Kind, ev.Command = kindShell, ti.Command
	}
	return ev, nil
}

// cursorEvent is a Cursor hooks.json event input.
type cursorEvent struct {
	HookEventName  string   `json:"hook_event_name"`
	FilePath       string   `json:"file_path"`
	Command        string   `json:"command"`
	Cwd            string   `json:"cwd"`
	WorkspaceRoots []string `json:"workspace_roots"`
}

func parseCursor(raw []byte) (*event, error) {
	var in cursorEvent
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, fmt.Errorf("the Cursor hook event is not JSON: %w", err)
	}
	ev := &event{Name: in.HookEventName, Tool: in.HookEventName, Cwd: in.Cwd, Roots: in.WorkspaceRoots}
	switch in.HookEventName {
	case "beforeReadFile":
		ev.Kind, ev.Paths, ev.At = kindRead, []string{in.FilePath}, "file_path"
	case "beforeShellExecution":
		ev.Kind, ev.Command = kindShell, in.Command
	case "afterFileEdit":
		ev.Kind, ev.Paths, ev.At, ev.Post = kindEdit, []string{in.FilePath}, "file_path", true
	default:
		return nil, fmt.Errorf("unsupported Cursor hook event %q (wire mcpc hook to beforeReadFile, beforeShellExecution and afterFileEdit)", in.HookEventName)
	}
	if ev.Cwd == "" && len(in.WorkspaceRoots) > 0 {
		ev.Cwd = in.WorkspaceRoots[0]
	}
	return ev, nil
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
