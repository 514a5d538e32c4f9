package hook

import (
	"reflect"
	"testing"
)

func TestParseShell(t *testing.T) {
	for _, tc := range []struct {
		note, cmd     string
		argv          [][]string
		redirects     [][]string
		parsed, subst bool
	}{
		{note: "simple", cmd: "git status", argv: [][]string{{"git", "status"}}, redirects: [][]string{{}}, parsed: true},
		{note: "operators", cmd: "ls src && grep -n x a.ts | wc -l; echo done", parsed: true,
			argv:      [][]string{{"ls", "src"}, {"grep", "-n", "x", "a.ts"}, {"wc", "-l"}, {"echo", "done"}},
			redirects: [][]string{{}, {}, {}, {}}},
		{note: "quotes", cmd: `echo 'a b' "c \"d\""`, argv: [][]string{{"echo", "a b", `c "d"`}}, redirects: [][]string{{}}, parsed: true},
		{note: "redirects", cmd: "echo x > out.txt 2>&1 >> log", argv: [][]string{{"echo", "x"}}, redirects: [][]string{{"out.txt", "log"}}, parsed: true},
		{note: "fd redirect to file", cmd: "make 2> err.log", argv: [][]string{{"make"}}, redirects: [][]string{{"err.log"}}, parsed: true},
		{note: "assignments", cmd: "GOFLAGS=-x go test ./...", argv: [][]string{{"go", "test", "./..."}}, redirects: [][]string{{}}, parsed: true},
		{note: "substitution", cmd: "echo $(cat secret)", argv: [][]string{{"echo", "$(cat", "secret)"}}, redirects: [][]string{{}}, parsed: true, subst: true},
		{note: "open quote", cmd: "echo 'oops", parsed: false},
		{note: "env runs its operand", cmd: "env -i rm -rf src", argv: [][]string{{"rm", "-rf", "src"}}, redirects: [][]string{{}}, parsed: true},
		{note: "wrappers in a row", cmd: "nice -n5 timeout -s KILL 10 command rm x", argv: [][]string{{"rm", "x"}}, redirects: [][]string{{}}, parsed: true},
		{note: "env alone prints", cmd: "env", argv: [][]string{{"env"}}, redirects: [][]string{{}}, parsed: true},
		{note: "command -v runs nothing", cmd: "command -v rm", argv: [][]string{{"command", "-v", "rm"}}, redirects: [][]string{{}}, parsed: true},
		{note: "env splitting a string", cmd: `env -S "rm -rf src"`, parsed: false},
		{note: "GNU time writing a file", cmd: "time -o out ls", parsed: false},
		{note: "dangling redirect", cmd: "echo >", parsed: false},
	} {
		t.Run(tc.note, func(t *testing.T) {
			sc := parseShell(tc.cmd)
			if sc.Parsed != tc.parsed || sc.Substitution != tc.subst {
				t.Fatalf("parsed %v substitution %v, want %v %v", sc.Parsed, sc.Substitution, tc.parsed, tc.subst)
			}
			if !tc.parsed {
				return
			}
			var argv, redirects [][]string
			for _, s := range sc.Segments {
				argv, redirects = append(argv, s.Argv), append(redirects, s.Redirects)
			}
			if !reflect.DeepEqual(argv, tc.argv) || !reflect.DeepEqual(redirects, tc.redirects) {
				t.Errorf("argv %q redirects %q, want %q %q", argv, redirects, tc.argv, tc.redirects)
			}
		})
	}
}

func TestShellWordFacts(t *testing.T) {
	for _, tc := range []struct {
		note, cmd   string
		expansion   bool
		assignments []string
		wrappers    []string
	}{
		{note: "plain", cmd: "cat a.ts", assignments: []string{}, wrappers: []string{}},
		{note: "variable", cmd: "cat $HOME/.bashrc", expansion: true, assignments: []string{}, wrappers: []string{}},
		{note: "braced variable in double quotes", cmd: `cat "${HOME}/x"`, expansion: true, assignments: []string{}, wrappers: []string{}},
		{note: "single quotes keep $", cmd: `grep 'a$b' x`, assignments: []string{}, wrappers: []string{}},
		{note: "a trailing $ expands nothing", cmd: `grep -n 'x' a$`, assignments: []string{}, wrappers: []string{}},
		{note: "brace list", cmd: "cat {a,b}.ts", expansion: true, assignments: []string{}, wrappers: []string{}},
		{note: "brace range", cmd: "cat f{1..3}", expansion: true, assignments: []string{}, wrappers: []string{}},
		{note: "find's braces", cmd: `find . -exec cat {} \;`, assignments: []string{}, wrappers: []string{}},
		{note: "prefix assignments", cmd: "GIT_PAGER=x LANG=C git log", assignments: []string{"GIT_PAGER", "LANG"}, wrappers: []string{}},
		{note: "env's assignments", cmd: "env -u HOME LD_PRELOAD=x.so ls", assignments: []string{"LD_PRELOAD"}, wrappers: []string{"env -u HOME LD_PRELOAD=x.so"}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			sc := parseShell(tc.cmd)
			if !sc.Parsed || sc.Expansion != tc.expansion {
				t.Fatalf("parsed %v expansion %v, want true %v", sc.Parsed, sc.Expansion, tc.expansion)
			}
			seg := sc.Segments[0]
			if !reflect.DeepEqual(seg.Assignments, tc.assignments) || !reflect.DeepEqual(seg.Wrappers, tc.wrappers) {
				t.Errorf("assignments %q wrappers %q, want %q %q", seg.Assignments, seg.Wrappers, tc.assignments, tc.wrappers)
			}
		})
	}
}

func TestAnswerFor(t *testing.T) {
	deny := &Decision{Permission: "deny", Denials: []Violation{{Code: "HOOK_OWN_FILE", Message: ".mcp.json is mcpc's", Remediation: "leave it"}}}
	for _, tc := range []struct {
		note, event string
		host        Host
		post        bool
		dec         *Decision
		want        string
	}{
		{note: "claude deny", host: ClaudeCode, event: "PreToolUse", dec: deny,
			want: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"HOOK_OWN_FILE: .mcp.json is mcpc's. leave it"}}`},
		{note: "claude post", host: ClaudeCode, event: "PostToolUse", post: true, dec: deny, want: `{}`},
		{note: "cursor read ask becomes deny", host: Cursor, event: "beforeReadFile", dec: &Decision{Permission: "ask"}, want: `{"permission":"deny"}`},
		{note: "cursor preToolUse", host: Cursor, event: "preToolUse", dec: deny,
			want: `{"agent_message":"HOOK_OWN_FILE: .mcp.json is mcpc's. leave it","permission":"deny","user_message":"HOOK_OWN_FILE: .mcp.json is mcpc's. leave it"}`},
		{note: "cursor postToolUse", host: Cursor, event: "postToolUse", post: true, dec: deny, want: `{}`},
		{note: "cursor shell", host: Cursor, event: "beforeShellExecution", dec: deny,
			want: `{"agent_message":"HOOK_OWN_FILE: .mcp.json is mcpc's. leave it","permission":"deny","user_message":"HOOK_OWN_FILE: .mcp.json is mcpc's. leave it"}`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := string(answerFor(tc.host, tc.event, tc.post, tc.dec)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestRelativeTo(t *testing.T) {
	for _, tc := range []struct{ note, cwd, p, want string }{
		{note: "absolute inside", p: "/ws/src/a.ts", want: "src/a.ts"},
		{note: "relative to cwd", cwd: "/ws/src", p: "a.ts", want: "src/a.ts"},
		{note: "outside stays", p: "/etc/passwd", want: "/etc/passwd"},
		{note: "escaping cwd stays absolute", cwd: "/ws", p: "../x", want: "/x"},
		{note: "relative without cwd", p: "src/a.ts", want: "src/a.ts"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := relativeTo("/ws", tc.cwd, tc.p); got != tc.want {
				t.Errorf("relativeTo = %q, want %q", got, tc.want)
			}
		})
	}
}
