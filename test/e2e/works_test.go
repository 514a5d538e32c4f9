package e2e

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestWorks lists a live work and follows its decisions as they happen.
func TestWorks(t *testing.T) {
	ws := newWorkspace(t)
	out, err := runCLI(ws, "works")
	if err != nil || out != "[]\n" {
		t.Fatalf("mcpc works before any work: %q %v", out, err)
	}
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	mustDeny(t, a.turn("read_file_lines", map[string]any{"targetFile": "nope.ts"}), "PACK_SCOPE_VIOLATION")

	out, err = runCLI(ws, "works")
	must(t, err)
	var works []struct {
		WorkID       string                     `json:"workId"`
		State        string                     `json:"state"`
		Agents       []struct{ AgentID string } `json:"agents"`
		LastDecision struct {
			Verb  string   `json:"verb"`
			Allow bool     `json:"allow"`
			Codes []string `json:"codes"`
		} `json:"lastDecision"`
	}
	must(t, json.Unmarshal([]byte(out), &works))
	if len(works) != 1 || works[0].WorkID != a.work || works[0].State != "PLANNING" || len(works[0].Agents) != 1 {
		t.Fatalf("mcpc works = %s", out)
	}
	if ld := works[0].LastDecision; ld.Verb != "read_file_lines" || ld.Allow || len(ld.Codes) != 1 || ld.Codes[0] != "PACK_SCOPE_VIOLATION" {
		t.Errorf("last decision = %+v", ld)
	}

	follow := exec.Command(binary, "works", "--follow", "--interval", "50ms", "--workspace", ws)
	stdout, err := follow.StdoutPipe()
	must(t, err)
	must(t, follow.Start())
	t.Cleanup(func() { follow.Process.Kill(); follow.Wait() })
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// Decisions recorded before its first poll are history, so turn until
	// one is streamed.
	var line string
	for i := 0; i < 40 && line == ""; i++ {
		mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 1}))
		select {
		case line = <-lines:
		case <-time.After(500 * time.Millisecond):
		}
	}
	if line == "" {
		t.Fatal("mcpc works --follow printed nothing after 40 turns")
	}
	var d struct {
		WorkID string `json:"workId"`
		Verb   string `json:"verb"`
		Allow  bool   `json:"allow"`
	}
	must(t, json.Unmarshal([]byte(line), &d))
	if d.WorkID != a.work || d.Verb != "read_file_lines" || !d.Allow {
		t.Errorf("followed decision = %s", line)
	}

	// A host's own tool use the hook refuses is streamed too.
	root, err := filepath.EvalSymlinks(ws)
	must(t, err)
	wantClaude(t, runHook(t, ws, "claude-code", hookEvent(t, "claude-edit", root, demo.Target, "")), "deny", "HOOK_EDIT_NOT_OWNED")
	deadline := time.After(10 * time.Second)
	for {
		select {
		case line = <-lines:
		case <-deadline:
			t.Fatal("mcpc works --follow did not stream the refused Edit")
		}
		var h struct {
			WorkID string   `json:"workId"`
			Verb   string   `json:"verb"`
			Allow  bool     `json:"allow"`
			Codes  []string `json:"codes"`
			Hook   struct {
				Event  string   `json:"event"`
				Writes []string `json:"writes"`
			} `json:"hook"`
		}
		must(t, json.Unmarshal([]byte(line), &h))
		if h.Hook.Event == "" {
			continue // a later read_file_lines decision
		}
		if h.WorkID != a.work || h.Verb != "Edit" || h.Allow || len(h.Codes) != 1 || h.Codes[0] != "HOOK_EDIT_NOT_OWNED" ||
			h.Hook.Event != "PreToolUse" || len(h.Hook.Writes) != 1 || h.Hook.Writes[0] != demo.Target {
			t.Errorf("followed hook event = %s", line)
		}
		break
	}
}
