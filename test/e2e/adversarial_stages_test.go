package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/protocol"
)

// The suite below tries mcpc as a hostile agent would, against the classes
// of issue 14 that staged decisions close: oracles on files the agent may
// not read, a stalled store, and refusals that were free text.

const envSecret = "API_TOKEN=sk-live-0123456789abcdef"

// answer is what an agent can observe of a turn, with the path it named
// replaced by a placeholder: two answers that differ reveal something.
func answer(t *testing.T, r *protocol.TurnResponse, path string) string {
	t.Helper()
	seen := map[string]any{
		"state": r.State, "denials": r.Denials, "denyReasons": r.DenyReasons,
		"suggestedAction": r.SuggestedAction, "result": r.Result, "capabilities": r.Capabilities,
	}
	raw, err := json.Marshal(seen)
	must(t, err)
	s := string(raw)
	if path != "" {
		quoted, _ := json.Marshal(path)
		s = strings.ReplaceAll(s, string(quoted[1:len(quoted)-1]), "<PATH>")
	}
	return s
}

// stagesWorkspace is the example with the files an agent must learn nothing
// about: a secret .env, mcpc's repository config, an ignored file, a
// directory, a FIFO and a link, none of them in any pack.
func stagesWorkspace(t *testing.T) string {
	t.Helper()
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".env"), []byte(envSecret+"\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(ws, ".gitignore"), []byte("ignored.ts\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(ws, "ignored.ts"), []byte("export const ignored = 1;\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(ws, "somedir"), 0o755))
	must(t, syscall.Mkfifo(filepath.Join(ws, "pipe.ts"), 0o644))
	must(t, os.Symlink(demo.Target, filepath.Join(ws, "alias.html")))
	return ws
}

// TestStagesNoContentOracle: apply_code_patch on a file outside the pack
// answers the same whatever the find text, so no request tells whether a
// secret starts with a given character; nothing was dry-run to decide it.
func TestStagesNoContentOracle(t *testing.T) {
	ws := stagesWorkspace(t)
	a := acceptedWork(t, ws)
	for _, target := range []string{".env", ".ai/config/repo.json"} {
		content, err := os.ReadFile(filepath.Join(ws, target))
		must(t, err)
		finds := []string{"API_TOKEN=s", "API_TOKEN=x", string(content[:1]), "\x00never", "{", `"validation"`}
		var first string
		for i, find := range finds {
			for _, edit := range []map[string]any{
				{"op": "replace_text", "find": find, "replace": "z"},
				{"op": "codemod", "codemod": "rename_identifier_in_file", "params": map[string]any{"from": "API_TOKEN", "to": "API_TOKEN"}},
			} {
				r := a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": target, "edits": []any{edit}})
				mustDeny(t, r, "PACK_SCOPE_VIOLATION")
				got := answer(t, r, "")
				if i == 0 && first == "" {
					first = got
				} else if got != first {
					t.Errorf("%s: the answer depends on the find text %q:\n%s\nvs\n%s", target, find, got, first)
				}
				if strings.Contains(got, "API_TOKEN=sk") || strings.Contains(got, "does not occur") {
					t.Errorf("%s: the answer speaks of the content: %s", target, got)
				}
			}
		}
		after, err := os.ReadFile(filepath.Join(ws, target))
		must(t, err)
		if !bytes.Equal(after, content) {
			t.Errorf("%s was changed", target)
		}
	}
	// The record says why, from the first stage alone: no dry run, no hash.
	rec := checkRecorded(t, ws, a.work, "PACK_SCOPE_VIOLATION", "request")
	if rec.Stage != "request" || len(rec.Stages) != 0 {
		t.Errorf("a refused target went past the first stage: stage %q, %d earlier stages", rec.Stage, len(rec.Stages))
	}
	if rec.Input.Patch.Edits != 0 || len(rec.Input.Patch.Problems) != 0 || rec.Input.Paths["targetFile"].Hash != "" {
		t.Errorf("facts about a file outside the pack were gathered: patch %+v, path %+v", rec.Input.Patch, rec.Input.Paths["targetFile"])
	}
}

// TestStagesNoExistenceOracle: every verb that takes a path answers a path
// outside the pack identically whether it names a secret, nothing, a
// directory, a FIFO, a link to a pack file or an ignored file.
func TestStagesNoExistenceOracle(t *testing.T) {
	ws := stagesWorkspace(t)
	a := acceptedWork(t, ws)
	// (mcpc's own files, .ai/config/..., are refused by name as well,
	// PROTECTED_PATH: a fact of the string, the same whether they exist)
	paths := []string{".env", "missing.ts", "somedir", "pipe.ts", "alias.html", "ignored.ts", "src/missing/deeper.ts", ".env.production"}
	verbs := []struct {
		verb string
		args func(p string) map[string]any
	}{
		{"read_file_lines", func(p string) map[string]any { return map[string]any{"targetFile": p, "startLine": 1, "endLine": 3} }},
		{"lookup_symbol_definition", func(p string) map[string]any { return map[string]any{"symbol": "ignored", "targetFile": p} }},
		{"trace_symbol_graph", func(p string) map[string]any { return map[string]any{"targetFile": p} }},
		{"search_codebase_text", func(p string) map[string]any { return map[string]any{"pattern": "API_TOKEN", "files": []string{p}} }},
		{"apply_code_patch", func(p string) map[string]any {
			return map[string]any{"planNodeId": "change-alert", "targetFile": p,
				"edits": []any{map[string]any{"op": "replace_text", "find": "API", "replace": "x"}}}
		}},
	}
	for _, v := range verbs {
		t.Run(v.verb, func(t *testing.T) {
			var want, wantPath string
			for _, p := range paths {
				r := a.turn(v.verb, v.args(p))
				mustDeny(t, r, "PACK_SCOPE_VIOLATION")
				got := answer(t, r, p)
				if want == "" {
					want, wantPath = got, p
					continue
				}
				if got != want {
					t.Errorf("%s answers %s differently from %s:\n%s\nvs\n%s", v.verb, p, wantPath, got, want)
				}
			}
		})
	}
}

// lockHeld collects the store-lock hold times a server logs at debug level.
type lockLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

var lockHeldLine = regexp.MustCompile(`lockHeld=([0-9.]+)`)

// size is how much has been logged so far.
func (l *lockLog) size() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Len()
}

// worstSince is the longest hold logged after offset, in milliseconds.
func (l *lockLog) worstSince(offset int) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	worst := 0.0
	for _, m := range lockHeldLine.FindAllStringSubmatch(l.buf.String()[offset:], -1) {
		if ms, err := strconv.ParseFloat(m[1], 64); err == nil && ms > worst {
			worst = ms
		}
	}
	return worst
}

// startWithLockLog is startServer with the server's debug log kept and its
// process returned; env is added to the server's environment.
func startWithLockLog(t *testing.T, ws string, env ...string) (*agent, *lockLog, *exec.Cmd) {
	t.Helper()
	return startBinaryWithLockLog(t, binary, ws, env...)
}

// waitExited waits for a server process started by mcp.Dial to end. The
// client owns cmd: its transport calls cmd.Wait when the connection
// closes, which a dead server's end of stdout does at once, and a second
// cmd.Wait beside it races on the command's state (one Wait's cleanup
// clears the channel the other receives from: two CI runs hung 30 minutes
// in TestCrashSafePendingRecordedOnce that way). The process's own Wait
// reaps it without touching the command.
func waitExited(cmd *exec.Cmd) {
	_, _ = cmd.Process.Wait() // an error: the transport's Wait reaped it first
}

// startBinaryWithLockLog is startWithLockLog for the binary bin (the failpoint build).
func startBinaryWithLockLog(t *testing.T, bin, ws string, env ...string) (*agent, *lockLog, *exec.Cmd) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "serve", "--workspace", ws, "--log-level", "debug")
	cmd.Env = append(os.Environ(), env...)
	logs := &lockLog{}
	cmd.Stderr = logs
	// Wait copies stderr to logs until every holder of the pipe closes it;
	// past this delay Wait closes the pipe itself.
	cmd.WaitDelay = 5 * time.Second
	c, err := mcp.Dial(ctx, cmd)
	if err != nil {
		t.Fatalf("starting mcpc serve: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return &agent{t: t, c: c}, logs, cmd
}

// TestStagesNothingStalls: an identity rename, a pathological search and a
// huge file in the pack stall nothing. Another process's turns complete
// while they run, each is answered with a structured decision, and the
// longest store-lock hold is logged.
func TestStagesNothingStalls(t *testing.T) {
	ws := stagesWorkspace(t)
	hostile, logs, _ := startWithLockLog(t, ws)
	init := hostile.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, hostile.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	mustAllow(t, hostile.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	other := startServer(t, ws)
	other.work, other.id = hostile.work, "other"

	identity := map[string]any{"op": "codemod", "codemod": "rename_identifier_in_file", "params": map[string]any{"from": "adp", "to": "adp"}}
	bigLine := strings.Repeat("adp-alert ", 1<<19) // 5 MB on one line
	requests := []struct {
		note string
		req  map[string]any
	}{
		{"identity rename", map[string]any{"verb": "apply_code_patch", "args": map[string]any{"planNodeId": "change-alert", "targetFile": "src/app/dashboard/dashboard.component.ts", "edits": []any{identity}}}},
		{"nested repeats", map[string]any{"verb": "search_codebase_text", "args": map[string]any{"pattern": "(?:a?){1000}b", "regex": true}}},
		{"a large pattern over a huge line", map[string]any{"verb": "search_codebase_text", "args": map[string]any{"pattern": "(?:[a-z]?){60}q", "regex": true}}},
		{"a huge file", map[string]any{"verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target}}},
	}
	since := logs.size()
	for _, tc := range requests {
		t.Run(tc.note, func(t *testing.T) {
			if tc.note == "a large pattern over a huge line" {
				must(t, os.WriteFile(filepath.Join(ws, demo.Target), []byte(bigLine+"\n"), 0o644))
			}
			req := tc.req
			req["workId"], req["agentId"] = hostile.work, "hostile"
			done := make(chan *protocol.TurnResponse, 1)
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				r, err := hostile.c.Turn(ctx, req)
				if err != nil {
					t.Errorf("%s: %v", tc.note, err)
				}
				done <- r
			}()
			// The other process goes on meanwhile, turn after turn.
			for i := range 5 {
				start := time.Now()
				r := other.turn("lookup_symbol_definition", map[string]any{"symbol": "DashboardComponent"})
				mustAllow(t, r)
				if took := time.Since(start); took > 10*time.Second { // a hang, not a benchmark
					t.Fatalf("turn %d of another process took %s while %s ran", i, took, tc.note)
				}
			}
			select {
			case r := <-done:
				if r != nil && len(r.Denials) > 0 {
					mustDeny(t, r, r.Denials[0].Code)
					t.Logf("%s: %v", tc.note, r.DenyReasons)
				}
				if r != nil {
					if _, ok := r.Result["error"]; ok {
						t.Errorf("%s: a free-text error instead of a denial: %v", tc.note, r.Result)
					}
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%s was not answered", tc.note)
			}
		})
	}
	// A measurement for the report, not an assertion (timings vary).
	t.Logf("the longest store-lock hold of the hostile requests: %.1f ms", logs.worstSince(since))
	logHoldQuantiles(t, logs, 0, "the hostile process's turns")
}

// TestStagesSIGTERMMidTurn: a process whose turn would run for a minute
// (an identity rename, with the deadline raised to 60 s) still exits soon
// after SIGTERM, and the next process works on the same store.
func TestStagesSIGTERMMidTurn(t *testing.T) {
	ws := stagesWorkspace(t)
	a := acceptedWork(t, ws)
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	slow, _, cmd := startWithLockLog(t, ws, "MCPC_STORE_LOCK_TIMEOUT_MS=60000")
	identity := map[string]any{"op": "codemod", "codemod": "rename_identifier_in_file", "params": map[string]any{"from": "adp", "to": "adp"}}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, _ = slow.c.Turn(ctx, map[string]any{"verb": "apply_code_patch", "workId": a.work, "agentId": "slow",
			"args": map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{identity}}})
	}()
	time.Sleep(300 * time.Millisecond) // the turn is under way
	signalled := time.Now()
	must(t, cmd.Process.Signal(syscall.SIGTERM))
	waitGone(t, strconv.Itoa(cmd.Process.Pid), "mcpc %s did not exit after SIGTERM: %s")
	t.Logf("exited %s after SIGTERM", time.Since(signalled).Round(time.Millisecond)) // reported, not asserted
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
}

// TestStagesRefusalsAreRecorded: refusals that used to be free text in
// result.error are denials with stable codes, recorded, and explain-deny
// shows the stages that decided them.
func TestStagesRefusalsAreRecorded(t *testing.T) {
	ws := stagesWorkspace(t)
	a := acceptedWork(t, ws)

	// A pattern over the complexity limit: the first stage refuses it.
	mustDeny(t, a.turn("search_codebase_text", map[string]any{"pattern": "(?:x?){1000}b", "regex": true}), "SEARCH_PATTERN_TOO_COMPLEX")
	checkRecorded(t, ws, a.work, "SEARCH_PATTERN_TOO_COMPLEX", "request")

	// A patch that does not apply: the verb stage refuses it, after the
	// first allowed; the record keeps both.
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustDeny(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "replace_text", "find": "not in the template", "replace": "x"}}}), "EXEC_PATCH_INAPPLICABLE")
	rec := checkRecorded(t, ws, a.work, "EXEC_PATCH_INAPPLICABLE", "verb")
	if len(rec.Stages) != 1 || rec.Stages[0].Name != "request" || !rec.Stages[0].Result.Allow {
		t.Errorf("the verb stage's record does not keep the first stage: %+v", rec.Stages)
	}
	out, err := runCLI(ws, "explain-deny", "--work", a.work)
	if err != nil || !strings.Contains(out, "1. request (data.mcpc.main.stage1): allowed") || !strings.Contains(out, "2. verb (data.mcpc.main.decision): denied EXEC_PATCH_INAPPLICABLE") {
		t.Errorf("explain-deny does not show both stages: %v\n%s", err, out)
	}

	// A write the writer cannot do (the parent is a file): EXEC_FAILED,
	// recorded, and nothing written.
	mustAllow(t, a.turn("write_scratch_file", map[string]any{"relativePath": "notes", "content": "x"}))
	mustDeny(t, a.turn("write_scratch_file", map[string]any{"relativePath": "notes/deeper.md", "content": "y"}), "EXEC_FAILED")
	checkRecorded(t, ws, a.work, "EXEC_FAILED", "execution")
	out, err = runCLI(ws, "explain-deny", "--work", a.work, "--format", "json")
	if err != nil || !strings.Contains(out, `"EXEC_FAILED"`) || !strings.Contains(out, "same decision") {
		t.Errorf("explain-deny cannot explain an execution failure: %v\n%s", err, out)
	}

	// The scratch folder reached through a link: refused before any write.
	scratch := filepath.Join(ws, ".ai", "tmp", "work", a.work, "scratch")
	outside := t.TempDir()
	must(t, os.RemoveAll(scratch))
	must(t, os.Symlink(outside, scratch))
	mustDeny(t, a.turn("write_scratch_file", map[string]any{"relativePath": "n.md", "content": "z"}), "SCRATCH_SCOPE_VIOLATION")
	checkRecorded(t, ws, a.work, "SCRATCH_SCOPE_VIOLATION", "request")
	if names, _ := os.ReadDir(outside); len(names) > 0 {
		t.Errorf("a scratch write followed the link: %v", names)
	}
}

// stagesRecord is what the suite reads of a decision record.
type stagesRecord struct {
	Stage string `json:"stage"`
	Query string `json:"query"`
	Input struct {
		Patch struct {
			Edits    int   `json:"edits"`
			Problems []any `json:"problems"`
		} `json:"patch"`
		Paths map[string]struct {
			Hash string `json:"hash"`
		} `json:"paths"`
	} `json:"input"`
	Result struct {
		Allow   bool              `json:"allow"`
		Denials []protocol.Denial `json:"denials"`
	} `json:"result"`
	Stages []struct {
		Name   string `json:"name"`
		Result struct {
			Allow bool `json:"allow"`
		} `json:"result"`
	} `json:"stages"`
}

func latestRecord(t *testing.T, ws, work string) stagesRecord {
	t.Helper()
	dir := filepath.Join(ws, ".ai", "tmp", "work", work, "decisions")
	var last error
	// Record files are written after the turn is answered: wait for one that
	// is complete.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		if len(files) == 0 {
			last = fmt.Errorf("no decision records in %s", dir)
			continue
		}
		slices.Sort(files)
		raw, err := os.ReadFile(files[len(files)-1])
		if err != nil {
			last = err
			continue
		}
		var rec stagesRecord
		if last = json.Unmarshal(raw, &rec); last == nil {
			return rec
		}
	}
	t.Fatalf("no complete decision record: %v", last)
	return stagesRecord{}
}

// checkRecorded waits for the latest denied record file to carry code,
// decided at stage.
func checkRecorded(t *testing.T, ws, work, code, stage string) stagesRecord {
	t.Helper()
	var rec stagesRecord
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		rec = latestRecord(t, ws, work)
		if !rec.Result.Allow && len(rec.Result.Denials) > 0 && rec.Result.Denials[0].Code == code {
			break
		}
	}
	if rec.Result.Allow || len(rec.Result.Denials) == 0 || rec.Result.Denials[0].Code != code {
		t.Fatalf("the latest record does not deny with %s: %+v", code, rec.Result)
	}
	if rec.Stage != stage {
		t.Errorf("%s was recorded at stage %q, want %q", code, rec.Stage, stage)
	}
	if d := rec.Result.Denials[0]; d.Rule == "" || d.Remediation == "" || d.Severity == "" {
		t.Errorf("%s is not fully structured: %+v", code, d)
	}
	return rec
}

// TestStagesSideEffectGoDeclines: a gated commit the repository's hook
// refuses runs after the turn's transaction; the turn still answers a
// structured EXEC_FAILED denial, recorded as a decision of its own.
func TestStagesSideEffectGoDeclines(t *testing.T) {
	ws := newWorkspace(t)
	gitRepo(t, ws)
	a := startServer(t, ws)
	a.readyToCommit(ws)
	must(t, os.WriteFile(filepath.Join(ws, ".git", "hooks", "pre-commit"), []byte("#!/bin/sh\necho refused by policy hook >&2\nexit 1\n"), 0o755))
	r := a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"})
	mustDeny(t, r, "EXEC_FAILED")
	if _, ok := r.Result["error"]; ok {
		t.Errorf("a free-text error beside the denial: %v", r.Result)
	}
	if !strings.Contains(r.Denials[0].Message, "refused by policy hook") {
		t.Errorf("the denial does not say why: %v", r.DenyReasons)
	}
	rec := checkRecorded(t, ws, a.work, "EXEC_FAILED", "execution")
	if len(rec.Stages) == 0 || !rec.Stages[len(rec.Stages)-1].Result.Allow {
		t.Errorf("the record does not keep the stage that allowed the commit: %+v", rec.Stages)
	}
}

// readyToCommit takes a fresh agent on a git workspace to the point where
// the demo work's gated commit (node "commit", gate release-gate, approved)
// is the next turn: plan accepted, alert patched and validated, commit
// message in scratch.
func (a *agent) readyToCommit(ws string) {
	t := a.t
	t.Helper()
	init := a.initialize(demo.Prompt, "adp-alert")
	plan := demo.Plan(envelopeOf(init), true)
	plan["nodes"] = append(plan["nodes"].([]any), map[string]any{
		"nodeId": "commit", "kind": "side_effect", "dependsOn": []string{"validate-alert"},
		"atomicityBoundary": "repository", "expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "git revert",
		"sideEffectType": "git_commit", "sideEffectPayloadRef": "scratch:commit-message", "commitGateId": "release-gate",
	})
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": plan}))
	if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "release-gate", "--by", "reviewer"); err != nil {
		t.Fatalf("gate approve: %v\n%s", err, out)
	}
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target, "edits": []any{alertCodemod}}))
	mustAllow(t, a.turn("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}}))
	mustAllow(t, a.turn("write_scratch_file", map[string]any{"relativePath": "commit-message", "content": "Use sdf-alert\n"}))
}
