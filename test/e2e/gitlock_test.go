package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// TestGitOutsideTheLock: initialize_work reads the repository's snapshot
// (git status: seconds on a large repository, here made slow by an
// fsmonitor hook) before its store transaction, so another agent's turns
// are answered meanwhile instead of waiting for git.
func TestGitOutsideTheLock(t *testing.T) {
	ws := newWorkspace(t)
	git := gitRepo(t, ws)
	hook := filepath.Join(ws, ".git", "slow-fsmonitor")
	must(t, os.WriteFile(hook, []byte("#!/bin/sh\nsleep 1\nexit 1\n"), 0o755))
	git("config", "core.fsmonitor", hook)

	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert")
	b := startServer(t, ws)
	b.work = a.work
	mustAllow(t, b.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))

	slow := make(chan *protocol.TurnResponse, 1)
	go func() {
		r, _ := a.c.Turn(t.Context(), map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt})
		slow <- r
	}()
	time.Sleep(300 * time.Millisecond) // initialize_work is now in git status
	mustAllow(t, b.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	select {
	case <-slow:
		t.Fatal("the read was answered only after initialize_work: it waited for git")
	default:
	}
	if r := <-slow; r == nil || len(r.Denials) > 0 {
		t.Fatalf("initialize_work: %+v", r)
	}
}
