//go:build unix

package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
)

// outsideFile is a file next to the workspace that mcpc must never change.
func outsideFile(t *testing.T) (path string, original []byte) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "victim.txt")
	original = []byte("# a shell start-up file outside the worktree\n")
	must(t, os.WriteFile(path, original, 0o644))
	return path, original
}

func unchanged(t *testing.T, path string, original []byte) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || string(got) != string(original) {
		t.Errorf("the file outside the worktree changed: %q %v", got, err)
	}
}

// TestStateWritesFollowNoSymlink plants links where mcpc keeps its own files
// (the repository holds them, so anyone who can write to it can plant one):
// mcpc must neither write through them nor read through them.
func TestStateWritesFollowNoSymlink(t *testing.T) {
	t.Run("decision record file", func(t *testing.T) {
		ws := newWorkspace(t)
		a := startServer(t, ws)
		a.initialize(demo.Prompt, "adp-alert")
		victim, original := outsideFile(t)
		decisions := filepath.Join(ws, ".ai", "tmp", "work", a.work, "decisions")
		must(t, os.MkdirAll(decisions, 0o755))
		must(t, os.Symlink(victim, filepath.Join(decisions, "000003.json")))
		for range 3 {
			mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
		}
		a.c.Close() // flushes the records
		unchanged(t, victim, original)
	})
	t.Run("work folder", func(t *testing.T) {
		ws := newWorkspace(t)
		a := startServer(t, ws)
		a.initialize(demo.Prompt, "adp-alert")
		outside := t.TempDir()
		work := filepath.Join(ws, ".ai", "tmp", "work", a.work)
		must(t, os.Rename(work, work+".moved"))
		must(t, os.Symlink(outside, work))
		// Turns that write into the work folder fail (a store fault, not the
		// agent's doing); reads go on. Nothing lands outside.
		for _, req := range []map[string]any{
			{"verb": "escalate", "args": map[string]any{"need": "the orders grid component"}},
			{"verb": "write_scratch_file", "args": map[string]any{"relativePath": "notes.md", "content": "x"}},
		} {
			req["workId"], req["agentId"] = a.work, a.id
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, _ = a.c.Turn(ctx, req)
			cancel()
		}
		mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
		a.c.Close()
		if entries, _ := os.ReadDir(outside); len(entries) > 0 {
			t.Errorf("mcpc wrote %d entries through the symlinked work folder", len(entries))
		}
	})
	t.Run("trace ledger", func(t *testing.T) {
		ws := newWorkspace(t)
		victim, original := outsideFile(t)
		must(t, os.MkdirAll(filepath.Join(ws, ".orchestration"), 0o755))
		must(t, os.Symlink(victim, filepath.Join(ws, ".orchestration", "agent_trace.jsonl")))
		a := startServer(t, ws)
		init := a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
		mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
		mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
		mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
			"edits": []any{map[string]any{"op": "replace_text", "find": "adp-alert", "replace": "sdf-alert", "occurrence": 1}}}))
		unchanged(t, victim, original)
	})
}

// TestStateFolderLinkRefused: a repository that commits .ai/tmp as a link
// would have mcpc keep its database elsewhere; serve refuses to start.
func TestStateFolderLinkRefused(t *testing.T) {
	ws := newWorkspace(t)
	outside := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(ws, ".ai"), 0o755))
	must(t, os.Symlink(outside, filepath.Join(ws, ".ai", "tmp")))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, binary, "serve", "--workspace", ws).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "symbolic link") {
		t.Errorf("serve with a symlinked .ai/tmp: err %v, output:\n%s", err, out)
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("serve wrote %d entries through the symlinked .ai/tmp", len(entries))
	}
}

// TestGitignoreFIFO: the indexer reads .gitignore files of the repository;
// a FIFO there must not hang it (escalate refreshes the index).
func TestGitignoreFIFO(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert")
	must(t, syscall.Mkfifo(filepath.Join(ws, "src", "app", ".gitignore"), 0o644))
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.turn("escalate", map[string]any{"need": "the orders grid component"})
	}()
	select {
	case <-done:
	case <-time.After(45 * time.Second): // a hang guard, not a timing assertion
		t.Fatal("escalate hung on a FIFO named .gitignore")
	}
}
