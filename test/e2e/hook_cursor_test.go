package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/store"
)

// hookEvents reads the hook rows of the events table for a work.
func hookEvents(t *testing.T, ws, work string) []store.ObservedEvent {
	t.Helper()
	st, err := store.Open(filepath.Join(ws, app.StorePath))
	must(t, err)
	defer st.Close()
	events, err := st.ListEvents(context.Background(), store.EventFilter{WorkID: work, Kind: "hook", Limit: 1000})
	must(t, err)
	return events
}

// hookBody is the part of a hook event row's body the tests read.
type hookBody struct {
	Event      string   `json:"event"`
	Tool       string   `json:"tool"`
	Kind       string   `json:"kind"`
	Command    string   `json:"command"`
	Reads      []string `json:"reads"`
	Writes     []string `json:"writes"`
	Permission string   `json:"permission"`
	Ran        bool     `json:"ran"`
	BoundVia   string   `json:"boundVia"`
}

func lastHookEvent(t *testing.T, ws, work string) hookBody {
	t.Helper()
	events := hookEvents(t, ws, work)
	if len(events) == 0 {
		t.Fatalf("no hook event recorded for %s", work)
	}
	var b hookBody
	must(t, json.Unmarshal(events[len(events)-1].Body, &b))
	return b
}

// TestHookCursorTools drives `mcpc hook cursor` with recorded Cursor
// preToolUse/postToolUse events for each tool kind (Read, Grep, Write,
// StrReplace, Delete, ApplyPatch, a tool mcpc does not know, Shell) against
// a live work: edits are refused until an accepted change node owns the
// file, and what ran is recorded.
func TestHookCursorTools(t *testing.T) {
	ws := newWorkspace(t)
	root, err := filepath.EvalSymlinks(ws)
	must(t, err)
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert", "sdf-alert", "dashboard")
	outside := "src/app/unrelated.ts"
	must(t, os.WriteFile(filepath.Join(ws, outside), []byte("export const x = 1;\n"), 0o644))
	cursor := func(name, file, command string) map[string]any {
		t.Helper()
		return runHook(t, ws, "cursor", hookEvent(t, name, root, file, command))
	}

	// Reads and searches: the pack only.
	wantCursor(t, cursor("cursor-pretool-read", demo.Target, ""), "allow", "")
	wantCursor(t, cursor("cursor-pretool-read", outside, ""), "deny", "HOOK_READ_OUTSIDE_PACK")
	wantCursor(t, cursor("cursor-pretool-grep", demo.Target, ""), "allow", "")
	wantCursor(t, cursor("cursor-pretool-grep", outside, ""), "deny", "HOOK_READ_OUTSIDE_PACK")
	wantCursor(t, cursor("cursor-pretool-read", ".env", ""), "deny", "HOOK_PROTECTED_READ")
	// Edits, writes, deletes, patches and unknown file tools need an owning change node.
	for _, name := range []string{"cursor-pretool-write", "cursor-pretool-strreplace", "cursor-pretool-delete", "cursor-pretool-applypatch", "cursor-pretool-unknown"} {
		wantCursor(t, cursor(name, demo.Target, ""), "deny", "HOOK_EDIT_NOT_OWNED")
	}
	wantCursor(t, cursor("cursor-pretool-write", ".cursor/hooks.json", ""), "deny", "HOOK_OWN_FILE")
	wantCursor(t, cursor("cursor-pretool-applypatch", ".ai/config/repo.json", ""), "deny", "HOOK_OWN_FILE")
	// Shell.
	wantCursor(t, cursor("cursor-pretool-shell", "", "git status"), "allow", "")
	wantCursor(t, cursor("cursor-pretool-shell", "", "curl -s https://example.com"), "deny", "HOOK_SHELL_NETWORK")
	wantCursor(t, cursor("cursor-pretool-shell", "", "rm -rf src"), "deny", "HOOK_SHELL_WRITE")
	wantCursor(t, cursor("cursor-pretool-shell", "", "cat "+outside), "deny", "HOOK_READ_OUTSIDE_PACK")
	// Refusals are the work's history.
	if b := lastHookEvent(t, ws, a.work); b.Event != "preToolUse" || b.Tool != "Shell" || b.Permission != "deny" || b.Ran {
		t.Errorf("last hook event = %+v, want the refused Shell", b)
	}

	// A byte order mark before the event (Cursor on Windows) is no error.
	bom := append([]byte("\xef\xbb\xbf"), hookEvent(t, "cursor-pretool-read", root, demo.Target, "")...)
	wantCursor(t, runHook(t, ws, "cursor", bom), "allow", "")
	// An event that names no tool cannot be judged: denied.
	var noTool map[string]any
	must(t, json.Unmarshal(hookEvent(t, "cursor-pretool-write", root, demo.Target, ""), &noTool))
	delete(noTool, "tool_name")
	raw, _ := json.Marshal(noTool)
	wantCursor(t, runHook(t, ws, "cursor", raw), "deny", "HOOK_ERROR")

	// Once the plan is accepted its change node owns the target.
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	for _, name := range []string{"cursor-pretool-write", "cursor-pretool-strreplace", "cursor-pretool-applypatch"} {
		wantCursor(t, cursor(name, demo.Target, ""), "allow", "")
	}
	wantCursor(t, cursor("cursor-pretool-strreplace", "src/app/dashboard/dashboard.component.ts", ""), "deny", "HOOK_EDIT_NOT_OWNED")

	// After the fact: a read becomes the work's read snapshot.
	if got := cursor("cursor-posttool-read", demo.Target, ""); len(got) != 0 {
		t.Errorf("postToolUse answered %v, want {}", got)
	}
	st, err := store.Open(filepath.Join(ws, app.StorePath))
	must(t, err)
	var reads map[string]string
	must(t, st.View(context.Background(), func(tx *store.Tx) (err error) {
		reads, err = tx.Reads(context.Background(), a.work, demo.Target)
		return err
	}))
	st.Close()
	if !strings.HasPrefix(reads[demo.Target], "sha256:") {
		t.Errorf("postToolUse Read left no read snapshot: %v", reads)
	}
	// An edit made natively is recorded in the trace ledger.
	target := filepath.Join(ws, demo.Target)
	body, err := os.ReadFile(target)
	must(t, err)
	must(t, os.WriteFile(target, bytes.Replace(body, []byte("adp-alert"), []byte("sdf-alert"), 1), 0o644))
	if got := cursor("cursor-posttool-strreplace", demo.Target, ""); len(got) != 0 {
		t.Errorf("postToolUse answered %v, want {}", got)
	}
	ledger, err := os.ReadFile(filepath.Join(ws, ".orchestration", "agent_trace.jsonl"))
	must(t, err)
	last := string(lastLine(ledger))
	if !strings.Contains(last, `"relative_path":"`+demo.Target+`"`) || !strings.Contains(last, `"model_identifier":"cursor:StrReplace"`) {
		t.Errorf("postToolUse StrReplace left no trace ledger entry: %s", last)
	}
	// A shell command that ran is recorded, with what it read.
	cursor("cursor-posttool-shell", "", "grep -c sdf "+demo.Target)
	if b := lastHookEvent(t, ws, a.work); b.Tool != "Shell" || !b.Ran || b.Command != "grep -c sdf "+demo.Target || len(b.Reads) != 1 || b.Reads[0] != demo.Target {
		t.Errorf("last hook event = %+v, want the Shell that ran", b)
	}
	// A tool that failed changed nothing: recorded as not run, no ledger entry.
	cursor("cursor-posttool-failure", demo.Target, "")
	if b := lastHookEvent(t, ws, a.work); b.Event != "postToolUseFailure" || b.Ran {
		t.Errorf("last hook event = %+v, want the failure, not run", b)
	}
	after, err := os.ReadFile(filepath.Join(ws, ".orchestration", "agent_trace.jsonl"))
	must(t, err)
	if !bytes.Equal(after, ledger) {
		t.Errorf("a failed tool use wrote the trace ledger")
	}
	// A delete that ran is a ledger record like an edit: class DELETE, the
	// tombstone for a content hash (issue 19). Every record the hook wrote
	// is sealed into the chain `mcpc trace verify` checks.
	must(t, os.Remove(target))
	if got := cursor("cursor-posttool-delete", demo.Target, ""); len(got) != 0 {
		t.Errorf("postToolUse answered %v, want {}", got)
	}
	if b := lastHookEvent(t, ws, a.work); b.Tool != "Delete" || !b.Ran || len(b.Writes) != 1 || b.Writes[0] != demo.Target {
		t.Errorf("last hook event = %+v, want the Delete that ran", b)
	}
	deleted, err := os.ReadFile(filepath.Join(ws, ".orchestration", "agent_trace.jsonl"))
	must(t, err)
	var rec struct {
		MutationClass string `json:"mutation_class"`
		Files         []struct {
			RelativePath  string `json:"relative_path"`
			Conversations []struct {
				Contributor struct {
					ModelIdentifier string `json:"model_identifier"`
				} `json:"contributor"`
				Ranges []struct {
					ContentHash string `json:"content_hash"`
				} `json:"ranges"`
				Related []struct{ Type, Value string } `json:"related"`
			} `json:"conversations"`
		} `json:"files"`
	}
	must(t, json.Unmarshal(lastLine(deleted), &rec))
	if rec.MutationClass != "DELETE" || len(rec.Files) != 1 || rec.Files[0].RelativePath != demo.Target ||
		len(rec.Files[0].Conversations) != 1 || rec.Files[0].Conversations[0].Contributor.ModelIdentifier != "cursor:Delete" ||
		len(rec.Files[0].Conversations[0].Ranges) != 1 || rec.Files[0].Conversations[0].Ranges[0].ContentHash != "tombstone" ||
		len(rec.Files[0].Conversations[0].Related) == 0 {
		t.Errorf("postToolUse Delete left no delete record in the trace ledger: %s", lastLine(deleted))
	}
	if n := bytes.Count(deleted, []byte("\n")); n != 2 {
		t.Errorf("want the StrReplace and the Delete records, got %d lines:\n%s", n, deleted)
	}
	if ok, problem, out := traceVerify(t, ws); !ok {
		t.Errorf("trace verify rejects the hook's records: %v\n%s", problem, out)
	}
}
