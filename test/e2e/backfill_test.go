package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// TestRecordsAfterACrash: a process killed before its next pause has
// stored its last decisions but not written their files; the next serve on
// the workspace writes them, each the record the store holds.
func TestRecordsAfterACrash(t *testing.T) {
	ws := newWorkspace(t)
	crashed := exec.Command(binary, "serve", "--workspace", ws, "--no-warm")
	stdin, err := crashed.StdinPipe()
	must(t, err)
	stdout, err := crashed.StdoutPipe()
	must(t, err)
	must(t, crashed.Start())
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	send := func(id int, method string, params any) {
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		_, err := stdin.Write(append(msg, '\n'))
		must(t, err)
	}
	answer := func() map[string]any {
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		var m map[string]any
		must(t, json.Unmarshal(lines.Bytes(), &m))
		return m
	}
	send(1, "initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
	answer()
	_, err = stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	must(t, err)
	send(2, "tools/call", map[string]any{"name": "controller_turn", "arguments": map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt}})
	sc := answer()["result"].(map[string]any)["structuredContent"].(map[string]any)
	const reads = 30
	for i := range reads {
		send(3+i, "tools/call", map[string]any{"name": "controller_turn", "arguments": map[string]any{
			"verb": "read_file_lines", "workId": sc["workId"], "agentId": sc["agentId"], "args": map[string]any{"targetFile": demo.Target}}})
	}
	for range reads {
		answer()
	}
	must(t, crashed.Process.Kill()) // before the recorder's pause
	_ = crashed.Wait()

	dir := filepath.Join(ws, ".ai", "tmp", "work", sc["workId"].(string), "decisions")
	files := func() int { f, _ := filepath.Glob(filepath.Join(dir, "*.json")); return len(f) }
	if n := files(); n >= 1+reads {
		t.Fatalf("all %d record files were written before the kill; the test needs some pending", n)
	}
	next := exec.Command(binary, "serve", "--workspace", ws, "--no-warm")
	nextIn, err := next.StdinPipe()
	must(t, err)
	must(t, next.Start())
	defer func() { nextIn.Close(); _ = next.Wait() }()
	for deadline := time.Now().Add(20 * time.Second); files() < 1+reads && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
	}
	if n := files(); n != 1+reads {
		t.Fatalf("%d record files after the next serve started, want %d", n, 1+reads)
	}
	raw, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%06d.json", 1+reads)))
	must(t, err)
	var rec struct {
		Seq  int    `json:"seq"`
		Verb string `json:"verb"`
	}
	must(t, json.Unmarshal(raw, &rec))
	if rec.Seq != 1+reads || rec.Verb != "read_file_lines" {
		t.Errorf("the last record file holds %+v", rec)
	}
}
