package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// packVersion is the version of the pack document a response names.
func packVersion(r *protocol.TurnResponse) int {
	ref, _ := r.ContextPack["ref"].(string)
	var v int
	if _, err := fmt.Sscanf(filepath.Base(ref), "context-pack.v%d.json", &v); err != nil {
		return 0
	}
	return v
}

// packOnDisk reads the pack document a response names.
func packOnDisk(t *testing.T, ws string, r *protocol.TurnResponse) (files []string, raw []byte) {
	t.Helper()
	ref, _ := r.ContextPack["ref"].(string)
	raw, err := os.ReadFile(filepath.Join(ws, ref))
	if err != nil {
		t.Fatalf("the pack document %s the answer names is not on disk: %v", ref, err)
	}
	var doc struct {
		Files []string `json:"files"`
	}
	must(t, json.Unmarshal(raw, &doc))
	return doc.Files, raw
}

// TestCrashSafePackVersions: two escalates of one work, in two processes at
// once, each write a version of the pack of their own after their commits;
// the later version holds what both added, whichever committed first. A
// process that dies after an escalate committed, before its version was
// written, leaves it to the next process, which writes it from the store
// when it starts.
func TestCrashSafePackVersions(t *testing.T) {
	ws := stagesWorkspace(t)
	a := acceptedWork(t, ws)
	other := startServer(t, ws)
	first := asyncTurn(t, a, map[string]any{"verb": "escalate", "workId": a.work, "agentId": a.id,
		"args": map[string]any{"need": "the orders grid service and its module"}})
	second := asyncTurn(t, other, map[string]any{"verb": "escalate", "workId": a.work, "agentId": a.id,
		"args": map[string]any{"need": "the dashboard routing and its app module"}})
	r1, r2 := <-first, <-second
	mustAllow(t, r1)
	mustAllow(t, r2)
	later := r1
	if packVersion(r2) > packVersion(r1) {
		later = r2
	}
	files, _ := packOnDisk(t, ws, later)
	for _, r := range []*protocol.TurnResponse{r1, r2} {
		added, _ := r.Result["added"].(map[string]any)
		for _, f := range added["files"].([]any) {
			if !slices.Contains(files, f.(string)) {
				t.Errorf("the later pack version %s lost %s, which the other escalate added", later.ContextPack["ref"], f)
			}
		}
	}

	// A process that dies between the commit and the write.
	dying, _, cmd := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=pack:committed")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := dying.c.Turn(ctx, map[string]any{"verb": "escalate", "workId": a.work, "agentId": a.id,
		"args": map[string]any{"need": "the alert banner component"}}); err == nil {
		t.Fatal("the failpoint process answered the escalate it should have died in")
	}
	waitExited(cmd)
	next := startServer(t, ws)
	var r *protocol.TurnResponse
	// The version the dead process committed is written by the next one
	// when it starts; the next escalate grows it.
	crashed := filepath.Join(ws, ".ai", "tmp", "work", a.work, fmt.Sprintf("context-pack.v%d.json", packVersion(later)+1))
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(crashed); err == nil {
			break
		}
	}
	if _, err := os.Stat(crashed); err != nil {
		t.Fatalf("the next process did not write the pack version the dead one committed: %v", err)
	}
	r = next.turn("escalate", map[string]any{"need": "the orders grid service and its module"}, "workId", a.work, "agentId", a.id)
	mustAllow(t, r)
	if packVersion(r) != packVersion(later)+2 {
		t.Errorf("the escalate after the crash wrote %v, want version %d", r.ContextPack["ref"], packVersion(later)+2)
	}
	packOnDisk(t, ws, r)
	if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work", a.work, "context-pack.json")); err == nil {
		t.Error("the pack's first version was not swept")
	}
}

// TestCrashSafePendingRecordedOnce: a process that dies after it recorded
// a pending decision, before it removed the file, leaves the file; the next
// process removes it without recording the decision a second time.
func TestCrashSafePendingRecordedOnce(t *testing.T) {
	ws, a := leftPending(t)
	// serve records what is pending when it starts; this one dies right
	// after the commit.
	dying := exec.Command(failpointBinary(t), "serve", "--workspace", ws)
	dying.Env = append(os.Environ(), "MCPC_FAILPOINT=pending:recorded")
	stdin, err := dying.StdinPipe()
	must(t, err)
	defer stdin.Close()
	must(t, dying.Start())
	exited := make(chan error, 1)
	go func() { exited <- dying.Wait() }()
	select {
	case <-exited:
	case <-time.After(60 * time.Second):
		_ = dying.Process.Kill()
		t.Fatal("the failpoint process never reached the point after recording")
	}
	if left := pendingFiles(ws, a.work); len(left) != 1 {
		t.Fatalf("the dying process should have left its recorded pending file, have %v", left)
	}
	mustAllow(t, startServer(t, ws).turn("lookup_symbol_definition", map[string]any{"symbol": "DashboardComponent"}, "workId", a.work, "agentId", a.id))
	for deadline := time.Now().Add(10 * time.Second); len(pendingFiles(ws, a.work)) > 0 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
	}
	if left := pendingFiles(ws, a.work); len(left) > 0 {
		t.Fatalf("the recorded pending file was not removed: %v", left)
	}
	busy := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(ws, ".ai", "tmp", "work", a.work, "decisions", "*.json"))
		busy = 0
		for _, f := range files {
			if raw, err := os.ReadFile(f); err == nil && strings.Contains(string(raw), `"code":"STORE_BUSY"`) {
				busy++
			}
		}
		if busy > 0 {
			break
		}
	}
	if busy != 1 {
		t.Errorf("the STORE_BUSY denial is recorded %d times, want once", busy)
	}
}

// TestCrashSafeRankingCutShort: a ranking that outruns its deadline (the
// failpoint build stalls it past it) leaves a thinner pack, reported as the
// ranking-cut-short advisory in the answer and the decision record, which
// explain-deny explains.
func TestCrashSafeRankingCutShort(t *testing.T) {
	ws := stagesWorkspace(t)
	slow, _, _ := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=rank", "MCPC_STORE_LOCK_TIMEOUT_MS=500")
	r := slow.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, r)
	var found bool
	for _, a := range r.Advisories {
		found = found || a.Rule == `mcpc.rules.request["ranking-cut-short"]` && a.Severity == "warning" && a.Path == "pack.rankingCutShort"
	}
	if !found {
		t.Fatalf("the answer does not report the ranking cut short: %+v", r.Advisories)
	}
	work := r.WorkID
	out, err := runCLI(ws, "explain-deny", "--work", fmt.Sprint(work), "--decision", "1")
	if err != nil || !strings.Contains(out, "advisory PACK_INSUFFICIENT: ranking ran past its 2000 ms deadline") {
		t.Errorf("explain-deny does not explain the advisory: %v\n%s", err, out)
	}
}

// TestCrashSafeAttachmentRestored: a process that dies after initialize_work
// committed, before it wrote the work's files, leaves the inline
// attachment's file missing; the next serve writes it when it starts, with
// the bytes the request carried, where the pack the store kept says it is.
func TestCrashSafeAttachmentRestored(t *testing.T) {
	ws := newWorkspace(t)
	content := []byte("a screenshot's bytes \x00\xff, kept only in the request\n")
	dying, _, cmd := startBinaryWithLockLog(t, failpointBinary(t), ws, "MCPC_FAILPOINT=pack:committed")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := dying.c.Turn(ctx, map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
		"args": map[string]any{"lexemes": []string{"adp-alert"}, "attachments": []any{
			map[string]any{"type": "screenshot", "ref": "inline:base64:" + base64.StdEncoding.EncodeToString(content)},
		}}}); err == nil {
		t.Fatal("the failpoint process answered the initialize_work it should have died in")
	}
	waitExited(cmd)
	const attachment = "attachments/screenshot-001.bin"
	lost, _ := filepath.Glob(filepath.Join(ws, ".ai", "tmp", "work", "*", attachment))
	if len(lost) > 0 {
		t.Fatalf("the dying process wrote %v; the test needs it lost", lost)
	}

	startServer(t, ws)
	var restored []string
	for deadline := time.Now().Add(15 * time.Second); len(restored) == 0 && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		restored, _ = filepath.Glob(filepath.Join(ws, ".ai", "tmp", "work", "*", attachment))
	}
	if len(restored) != 1 {
		t.Fatalf("the next serve did not write the lost attachment: %v", restored)
	}
	if got, err := os.ReadFile(restored[0]); err != nil || string(got) != string(content) {
		t.Errorf("the restored attachment holds %q (%v), want the request's %q", got, err, content)
	}
	// The pack document was lost with it; the restored one names the file.
	workDir := filepath.Dir(filepath.Dir(restored[0]))
	raw, err := os.ReadFile(filepath.Join(workDir, "context-pack.json"))
	if err != nil {
		t.Fatalf("the next serve did not write the lost pack document: %v", err)
	}
	var pack struct {
		Attachments []struct {
			Ref string `json:"ref"`
		} `json:"attachments"`
	}
	must(t, json.Unmarshal(raw, &pack))
	rel, _ := filepath.Rel(ws, restored[0])
	if !slices.ContainsFunc(pack.Attachments, func(a struct {
		Ref string `json:"ref"`
	}) bool {
		return a.Ref == filepath.ToSlash(rel)
	}) {
		t.Errorf("the restored pack's attachments %+v do not name %s", pack.Attachments, rel)
	}
}
