package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
)

// hookEvents are recorded host events of test/e2e/testdata/hooks, as hosts
// send them, with the file or command each is measured with.
var hookEvents = []struct {
	name, host, event, file, command string
}{
	{"claude/PreToolUse-Read", "claude-code", "claude-read", demo.Target, ""},
	{"claude/PreToolUse-Edit", "claude-code", "claude-edit", demo.Target, ""},
	{"claude/PreToolUse-Bash", "claude-code", "claude-bash", "", "grep -c adp " + demo.Target},
	{"claude/PostToolUse-Edit", "claude-code", "claude-edit-post", demo.Target, ""},
	{"claude/PostToolUse-Bash", "claude-code", "claude-bash-post", "", "git status"},
	{"cursor/preToolUse-Read", "cursor", "cursor-pretool-read", demo.Target, ""},
	{"cursor/preToolUse-StrReplace", "cursor", "cursor-pretool-strreplace", demo.Target, ""},
	{"cursor/preToolUse-Shell", "cursor", "cursor-pretool-shell", "", "git status"},
	{"cursor/beforeReadFile", "cursor", "cursor-read", demo.Target, ""},
	{"cursor/postToolUse-StrReplace", "cursor", "cursor-posttool-strreplace", demo.Target, ""},
}

// BenchmarkHookColdProcess runs `mcpc hook HOST` as hosts do, one cold
// process per event with the event on stdin, against the example workspace
// with an active work, and reports each event's wall latency as p50 and
// p99 (run with -benchtime=100x or more for a p99 of its own).
func BenchmarkHookColdProcess(b *testing.B) {
	bin, ws := stdioSetup(b)
	a, err := app.Open(context.Background(), app.Options{Workspace: ws})
	if err != nil {
		b.Fatal(err)
	}
	mustTurn(b, a, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
	if err := a.Close(); err != nil {
		b.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(ws)
	if err != nil {
		b.Fatal(err)
	}
	for _, ev := range hookEvents {
		raw, err := os.ReadFile(filepath.Join("..", "test", "e2e", "testdata", "hooks", ev.event+".json"))
		if err != nil {
			b.Fatal(err)
		}
		cmd, _ := json.Marshal(ev.command)
		event := []byte(strings.NewReplacer("{{ROOT}}", root, "{{FILE}}", ev.file, "{{COMMAND}}", string(cmd[1:len(cmd)-1]), "{{RESULT}}", "null").Replace(string(raw)))
		b.Run(ev.name, func(b *testing.B) {
			run := func() time.Duration {
				c := exec.Command(bin, "hook", ev.host, "--workspace", ws)
				c.Stdin = bytes.NewReader(event)
				var stderr bytes.Buffer
				c.Stderr = &stderr
				start := time.Now()
				out, err := c.Output()
				d := time.Since(start)
				if err != nil || !json.Valid(out) || stderr.Len() > 0 {
					b.Fatalf("mcpc hook %s: %v %s %s", ev.host, err, out, stderr.Bytes())
				}
				return d
			}
			run() // the page cache holds the binary
			var lat []time.Duration
			b.ResetTimer()
			for b.Loop() {
				lat = append(lat, run())
			}
			b.StopTimer()
			reportLatency(b, lat)
		})
	}
}
