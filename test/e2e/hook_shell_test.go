package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

// workUnderWay is a demo workspace with a work initialized by a real server:
// the workspace, its root as the host reports it (links resolved) and the
// work's pack files.
func workUnderWay(t *testing.T) (ws, root string, files []string) {
	t.Helper()
	ws = newWorkspace(t)
	root, err := filepath.EvalSymlinks(ws)
	must(t, err)
	a := startServer(t, ws)
	return ws, root, packFiles(a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard"))
}

// TestHookShellThatWantsOut drives the real `mcpc hook claude-code` with
// shell commands an agent bound to a work might try to get around its pack
// and plan with: a wrapper that runs another command, a variable that
// changes what a safe command runs, an option that makes it write or run a
// program, a word the shell expands into other files, a search of a folder.
func TestHookShellThatWantsOut(t *testing.T) {
	ws, root, files := workUnderWay(t)
	outside := "src/app/private.ts" // written after initialize_work, so outside the pack
	must(t, os.WriteFile(filepath.Join(ws, outside), []byte("export const secret = 1;\n"), 0o644))
	if slices.Contains(files, outside) || !slices.Contains(files, demo.Target) {
		t.Fatalf("pack %q: want %s in it and %s not", files, demo.Target, outside)
	}
	for _, tc := range []struct{ note, command, decision, code string }{
		// wrappers run their operand, which is judged
		{note: "env runs rm", command: "env -i rm -rf src", decision: "deny", code: "HOOK_SHELL_WRITE"},
		{note: "nice and timeout run rm", command: "nice -n5 timeout 5 rm -rf src", decision: "deny", code: "HOOK_SHELL_WRITE"},
		{note: "env splitting a string", command: `env -S "rm -rf src"`, decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "env alone", command: "env", decision: "allow"},
		{note: "a wrapped safe command", command: "timeout 10 git status", decision: "allow"},
		// variables that change what a safe command runs
		{note: "pager", command: `GIT_PAGER="rm -rf src" git log`, decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "preload through env", command: "env LD_PRELOAD=/tmp/x.so ls", decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "a harmless variable", command: "LANG=C ls src", decision: "allow"},
		// options that make a safe command run a program or write
		{note: "go test -exec", command: `go test -exec "rm -rf src" ./...`, decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "make variable", command: "make test SHELL=/tmp/evil", decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "go build -o", command: "go build -o src/app ./...", decision: "deny", code: "HOOK_SHELL_WRITE"},
		{note: "sort -o attached", command: "sort -uosrc/o " + demo.Target, decision: "deny", code: "HOOK_SHELL_WRITE"},
		{note: "git diff --output", command: "git diff --output=src/o", decision: "deny", code: "HOOK_SHELL_WRITE"},
		{note: "uniq's output operand", command: "uniq " + demo.Target + " src/o", decision: "deny", code: "HOOK_SHELL_WRITE"},
		{note: "go test as it is run", command: "go test -count=1 ./...", decision: "allow"},
		// words the shell turns into other paths
		{note: "climbing out", command: "cat ../../../../../../../../etc/passwd", decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "home directory", command: "head -c 100 ~/.ssh/id_rsa", decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "variable", command: "cat $HOME/.bashrc", decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "brace list", command: "cat src/app/{private,other}.ts", decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "pattern matching an outside file", command: "cat src/app/priv*", decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "option value", command: "grep --file=/etc/shadow x " + demo.Target, decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		// searches of more than the pack
		{note: "grep a folder", command: "grep -rn secret src", decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "rg the working directory", command: "rg secret", decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "history's content", command: "git log -p", decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "any commit's content", command: "git show HEAD:" + outside, decision: "ask", code: "HOOK_SHELL_UNLISTED"},
		{note: "grep a pack file", command: "grep -n adp " + demo.Target, decision: "allow"},
		{note: "list a folder", command: "ls src/app", decision: "allow"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			wantClaude(t, runHook(t, ws, "claude-code", hookEvent(t, "claude-bash", root, "", tc.command)), tc.decision, tc.code)
		})
	}
}

// TestHookToolsThatWantOut drives the real hook with Claude Code's other
// tools during a work: the web tools reach the network, a listing outside
// the worktree and a notebook read outside the pack read there, another
// MCP server's tool is put to the person, a tool the hook does not know
// that names a file is judged as writing it.
func TestHookToolsThatWantOut(t *testing.T) {
	ws, root, _ := workUnderWay(t)
	base := hookEvent(t, "claude-read", root, demo.Target, "")
	for _, tc := range []struct {
		note, tool string
		input      map[string]any
		decision   string
		code       string
	}{
		{note: "web fetch", tool: "WebFetch", input: map[string]any{"url": "https://example.com/x", "prompt": "p"}, decision: "deny", code: "HOOK_SHELL_NETWORK"},
		{note: "web search", tool: "WebSearch", input: map[string]any{"query": "q"}, decision: "deny", code: "HOOK_SHELL_NETWORK"},
		{note: "glob outside", tool: "Glob", input: map[string]any{"pattern": "*", "path": "/etc"}, decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "glob climbing", tool: "Glob", input: map[string]any{"pattern": "../../../../../../*"}, decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "glob inside", tool: "Glob", input: map[string]any{"pattern": "**/*.ts"}, decision: "allow"},
		{note: "ls outside", tool: "LS", input: map[string]any{"path": "/etc"}, decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "notebook read outside", tool: "NotebookRead", input: map[string]any{"notebook_path": "/etc/passwd"}, decision: "deny", code: "HOOK_READ_OUTSIDE_PACK"},
		{note: "another server's tool", tool: "mcp__fs__read_file", input: map[string]any{"path": "/etc/passwd"}, decision: "ask", code: "HOOK_TOOL_UNLISTED"},
		{note: "unknown tool naming a file", tool: "Rename", input: map[string]any{"file_path": filepath.Join(root, demo.Target)}, decision: "deny", code: "HOOK_EDIT_NOT_OWNED"},
		{note: "todo list", tool: "TodoWrite", input: map[string]any{"todos": []any{}}, decision: "allow"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ev := withFields(t, base, "tool_name", tc.tool, "tool_input", tc.input)
			wantClaude(t, runHook(t, ws, "claude-code", ev), tc.decision, tc.code)
		})
	}
}
