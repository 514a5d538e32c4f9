package hook

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestParseCursorTools(t *testing.T) {
	for _, tc := range []struct {
		note, raw string
		kind      string
		paths     []string
		post      bool
		failed    bool
		command   string
		wantErr   bool
	}{
		{note: "read", raw: `{"hook_event_name":"preToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/a.ts"}}`, kind: kindRead, paths: []string{"/ws/a.ts"}},
		{note: "read by path", raw: `{"hook_event_name":"preToolUse","tool_name":"Read","tool_input":{"path":"a.ts"}}`, kind: kindRead, paths: []string{"a.ts"}},
		{note: "grep defaults to the workspace", raw: `{"hook_event_name":"preToolUse","tool_name":"Grep","tool_input":{"pattern":"x"}}`, kind: kindRead, paths: []string{"."}},
		{note: "write", raw: `{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":{"file_path":"/ws/a.ts","contents":"x"}}`, kind: kindWrite, paths: []string{"/ws/a.ts"}},
		{note: "str replace", raw: `{"hook_event_name":"preToolUse","tool_name":"StrReplace","tool_input":{"path":"/ws/a.ts"}}`, kind: kindEdit, paths: []string{"/ws/a.ts"}},
		{note: "delete", raw: `{"hook_event_name":"preToolUse","tool_name":"Delete","tool_input":{"file_path":"/ws/a.ts"}}`, kind: kindEdit, paths: []string{"/ws/a.ts"}},
		{note: "apply patch", raw: `{"hook_event_name":"preToolUse","tool_name":"ApplyPatch","tool_input":{"patch":"*** Begin Patch\n*** Update File: a.ts\n*** Move to: b.ts\n*** Add File: c.ts\n*** End Patch"}}`, kind: kindEdit, paths: []string{"a.ts", "b.ts", "c.ts"}},
		{note: "apply patch without files", raw: `{"hook_event_name":"preToolUse","tool_name":"ApplyPatch","tool_input":{"patch":"nothing"}}`, wantErr: true},
		{note: "unknown tool naming a file writes it", raw: `{"hook_event_name":"preToolUse","tool_name":"Rename","tool_input":{"file_path":"a.ts"}}`, kind: kindWrite, paths: []string{"a.ts"}},
		{note: "unknown tool naming none", raw: `{"hook_event_name":"preToolUse","tool_name":"Think","tool_input":{}}`, kind: kindOther},
		{note: "glob lists names", raw: `{"hook_event_name":"preToolUse","tool_name":"Glob","tool_input":{"glob_pattern":"*.ts"}}`, kind: kindList, paths: []string{"."}},
		{note: "glob from a root lists there", raw: `{"hook_event_name":"preToolUse","tool_name":"Glob","tool_input":{"target_directory":"src","glob_pattern":"/etc/*"}}`, kind: kindList, paths: []string{"src", "/etc/*"}},
		{note: "mcp tool", raw: `{"hook_event_name":"preToolUse","tool_name":"MCP:query","tool_input":"{\"file_path\":\"a.ts\"}"}`, kind: kindExternal},
		{note: "shell", raw: `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"ls","working_directory":"/ws/src"}}`, kind: kindShell, command: "ls"},
		{note: "tool input as a string", raw: `{"hook_event_name":"preToolUse","tool_name":"Write","tool_input":"{\"file_path\":\"a.ts\"}"}`, kind: kindWrite, paths: []string{"a.ts"}},
		{note: "post", raw: `{"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"file_path":"a.ts"},"tool_output":"{}"}`, kind: kindWrite, paths: []string{"a.ts"}, post: true},
		{note: "failure", raw: `{"hook_event_name":"postToolUseFailure","tool_name":"Write","tool_input":{"file_path":"a.ts"}}`, kind: kindWrite, paths: []string{"a.ts"}, post: true, failed: true},
		{note: "after shell", raw: `{"hook_event_name":"afterShellExecution","command":"ls","output":""}`, kind: kindShell, command: "ls", post: true},
		{note: "earlier edit_file", raw: `{"hook_event_name":"preToolUse","tool_name":"edit_file","tool_input":{"target_file":"a.ts","code_edit":"x"}}`, kind: kindEdit, paths: []string{"a.ts"}},
		{note: "earlier run_terminal_cmd", raw: `{"hook_event_name":"preToolUse","tool_name":"run_terminal_cmd","tool_input":{"command":"ls"}}`, kind: kindShell, command: "ls"},
		{note: "no tool name", raw: `{"hook_event_name":"preToolUse","tool_input":{"file_path":"a.ts"}}`, wantErr: true},
		{note: "unknown event", raw: `{"hook_event_name":"beforeSubmitPrompt"}`, wantErr: true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ev, err := parseCursor([]byte(tc.raw))
			if tc.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %+v", ev)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != tc.kind || !reflect.DeepEqual(ev.Paths, tc.paths) || ev.Post != tc.post || ev.Failed != tc.failed || ev.Command != tc.command {
				t.Errorf("got kind %s paths %q post %v failed %v command %q", ev.Kind, ev.Paths, ev.Post, ev.Failed, ev.Command)
			}
		})
	}
}

func TestTurnWork(t *testing.T) {
	answer := `{"workId":"work-1","agentId":"a","state":"INITIALIZED","denials":[]}`
	denied := `{"workId":"work-1","denials":[{"code":"X"}]}`
	text, _ := json.Marshal(answer)
	for _, tc := range []struct{ note, raw, want string }{
		{note: "answer", raw: answer, want: "work-1"},
		{note: "denied answer binds nothing", raw: denied, want: ""},
		{note: "structured content", raw: `{"content":[],"structuredContent":` + answer + `}`, want: "work-1"},
		{note: "content blocks", raw: `[{"type":"text","text":` + string(text) + `}]`, want: "work-1"},
		{note: "result as a string", raw: string(mustJSON(`{"content":[{"type":"text","text":` + string(text) + `}]}`)), want: "work-1"},
		{note: "error result", raw: `{"isError":true,"structuredContent":` + answer + `}`, want: ""},
		{note: "not json", raw: `"plain text"`, want: ""},
		{note: "empty", raw: ``, want: ""},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := turnWork(json.RawMessage(tc.raw)); got != tc.want {
				t.Errorf("turnWork = %q, want %q", got, tc.want)
			}
		})
	}
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

func TestIsControllerTurn(t *testing.T) {
	for tool, want := range map[string]bool{
		"controller_turn": true, "mcp__mcpc__controller_turn": true, "MCP:controller_turn": true, "mcpc-controller_turn": true,
		"mycontroller_turn": false, "controller_turns": false, "Read": false,
	} {
		if got := isControllerTurn(tool); got != want {
			t.Errorf("isControllerTurn(%q) = %v", tool, got)
		}
	}
}

func TestParseClaudeTools(t *testing.T) {
	for _, tc := range []struct {
		note, raw string
		kind      string
		paths     []string
	}{
		{note: "read", raw: `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/ws/a.ts"}}`, kind: kindRead, paths: []string{"/ws/a.ts"}},
		{note: "notebook read", raw: `{"hook_event_name":"PreToolUse","tool_name":"NotebookRead","tool_input":{"notebook_path":"/etc/x.ipynb"}}`, kind: kindRead, paths: []string{"/etc/x.ipynb"}},
		{note: "glob in the working directory", raw: `{"hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"**/*.ts"}}`, kind: kindList, paths: []string{"."}},
		{note: "glob climbing out", raw: `{"hook_event_name":"PreToolUse","tool_name":"Glob","tool_input":{"pattern":"../../*","path":"src"}}`, kind: kindList, paths: []string{"src", "../../*"}},
		{note: "ls outside", raw: `{"hook_event_name":"PreToolUse","tool_name":"LS","tool_input":{"path":"/etc"}}`, kind: kindList, paths: []string{"/etc"}},
		{note: "another server's tool", raw: `{"hook_event_name":"PreToolUse","tool_name":"mcp__fs__read_file","tool_input":{"path":"/etc/passwd"}}`, kind: kindExternal},
		{note: "mcpc's own tool", raw: `{"hook_event_name":"PreToolUse","tool_name":"mcp__mcpc__controller_turn","tool_input":{"verb":"initialize_work"}}`, kind: kindOther},
		{note: "web fetch", raw: `{"hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://example.com"}}`, kind: kindOther},
		{note: "unknown tool naming a file writes it", raw: `{"hook_event_name":"PreToolUse","tool_name":"Rename","tool_input":{"file_path":"a.ts"}}`, kind: kindWrite, paths: []string{"a.ts"}},
		{note: "subagent", raw: `{"hook_event_name":"PreToolUse","tool_name":"Task","tool_input":{"prompt":"read /etc/passwd"}}`, kind: kindOther},
	} {
		t.Run(tc.note, func(t *testing.T) {
			ev, err := parseClaude([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != tc.kind || !reflect.DeepEqual(ev.Paths, tc.paths) {
				t.Errorf("got kind %s paths %q, want %s %q", ev.Kind, ev.Paths, tc.kind, tc.paths)
			}
		})
	}
}
