package e2e

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestOneShotPipe: a client that writes its requests and closes stdin at
// once gets every answer, the last line's too when it has no newline.
func TestOneShotPipe(t *testing.T) {
	const (
		initialize  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}`
		initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
		ping        = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
		turn        = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"initialize_work","originalPrompt":"Migrate adp-alert to sdf-alert"}}}`
	)
	for _, tc := range []struct {
		note, input string
		answers     []string
	}{
		{"ping", initialize + "\n" + initialized + "\n" + ping + "\n", []string{`"id":2,"result":{}`}},
		{"ping without a newline", initialize + "\n" + initialized + "\n" + ping, []string{`"id":2,"result":{}`}},
		{"turn without a newline", initialize + "\n" + initialized + "\n" + turn, []string{`"id":3,"result":{"content"`, `"state\":\"PLANNING\"`}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			cmd := exec.Command(binary, "serve", "--workspace", newWorkspace(t), "--no-warm")
			cmd.Stdin = strings.NewReader(tc.input)
			var out bytes.Buffer
			cmd.Stdout = &out
			must(t, cmd.Run())
			for _, want := range append([]string{`"id":1,"result"`}, tc.answers...) {
				if !strings.Contains(out.String(), want) {
					t.Errorf("no %s in %q", want, out.String())
				}
			}
		})
	}
}
