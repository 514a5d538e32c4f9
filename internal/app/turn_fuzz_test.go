package app_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpc/mcpc/examples"
	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// FuzzTurn sends arbitrary arguments under any verb to a started work and
// holds every answer to the contract, whatever the input: an answer, never
// an error or a panic; the envelope's schemaVersion and capabilities; each
// denial structured (code, rule, message) and explained (a denyReason each,
// a suggestedAction); and a denied turn leaves the work in its state and the
// workspace's files as they were. A submitted plan gets the envelope fields
// it leaves out from the work's current envelope, so fuzzed plans reach the
// plan rules past the envelope check; a work that reaches COMPLETED is
// replaced by a new one.
func FuzzTurn(f *testing.F) {
	ws := f.TempDir()
	if err := examples.CopyAngularShop(ws); err != nil {
		f.Fatal(err)
	}
	a, err := app.Open(context.Background(), app.Options{Workspace: ws})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { a.Close() })
	a.Config.Budget.MaxTokens, a.Config.Budget.WorkMaxTokens, a.Config.Budget.SessionMaxTokens = 1<<40, 1<<42, 1<<42

	var (
		work  *protocol.TurnResponse
		state string         // the work's state after the last turn on it
		env   map[string]any // its plan envelope, as the last pack left it
	)
	follow := func(r *protocol.TurnResponse) {
		state = r.State
		if e, ok := r.PlanGraphSchema["envelope"].(map[string]any); ok {
			env = e
		}
	}
	start := func(t testing.TB) {
		raw, _ := json.Marshal(map[string]any{"verb": "initialize_work", "originalPrompt": demo.Prompt,
			"args": map[string]any{"lexemes": []string{"adp-alert", "dashboard"}}})
		r, err := a.Controller.Turn(context.Background(), raw)
		if err != nil || len(r.Denials) > 0 {
			t.Fatalf("initialize_work: %v %v", err, r)
		}
		work = r
		follow(r)
	}
	start(f)

	seed := func(verb string, args any) {
		raw, _ := json.Marshal(args)
		f.Add(verb, string(raw))
	}
	noEnvelope := map[string]any{}
	seed("read_file_lines", map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 3})
	seed("read_file_lines", map[string]any{"targetFile": "../../etc/passwd"})
	seed("search_codebase_text", map[string]any{"pattern": "adp-alert", "regex": true, "files": []string{demo.Target}})
	seed("lookup_symbol_definition", map[string]any{"symbol": "DashboardComponent"})
	seed("trace_symbol_graph", map[string]any{"symbol": "DashboardComponent", "depth": 2})
	seed("write_scratch_file", map[string]any{"relativePath": "notes/a.md", "content": "x"})
	seed("escalate", map[string]any{"need": "the alert component", "type": "file"})
	seed("submit_execution_plan", map[string]any{"planGraph": demo.Plan(noEnvelope, false)})
	seed("submit_execution_plan", map[string]any{"planGraph": demo.Plan(noEnvelope, true)})
	seed("apply_code_patch", map[string]any{"planNodeId": "change-alert", "targetFile": demo.Target,
		"edits": []any{map[string]any{"op": "codemod", "codemod": "rewrite_template_tag", "params": map[string]any{"from": "adp-alert", "to": "sdf-alert"}},
			map[string]any{"op": "replace_text", "find": `type="warning"`, "replace": `severity="warning"`}}})
	seed("run_automation_recipe", map[string]any{"recipeId": "run_targeted_validation", "planNodeId": "validate-alert",
		"params": map[string]any{"commandId": "no-adp-alert"}})
	seed("execute_gated_side_effect", map[string]any{"planNodeId": "change-alert", "sideEffectType": "commit"})
	seed("run_sandboxed_code", map[string]any{"planNodeId": "change-alert", "code": "1"})
	seed("signal_task_complete", map[string]any{"summary": "done"})
	seed("initialize_work", map[string]any{"lexemes": []string{"x"}})
	seed("rm_rf", map[string]any{})

	f.Fuzz(func(t *testing.T, verb, args string) {
		if !json.Valid([]byte(args)) {
			t.Skip("args must be JSON to reach the verbs' rules; invalid JSON is TestBadInput's")
		}
		raw, _ := json.Marshal(map[string]any{"verb": verb, "workId": work.WorkID, "agentId": work.AgentID,
			"args": withEnvelope(verb, json.RawMessage(args), env)})
		before := filesHash(t, ws)
		r, err := a.Controller.Turn(context.Background(), raw)
		if err != nil {
			t.Fatalf("%s %s: an error instead of an answer: %v", verb, args, err)
		}
		if r.SchemaVersion != "2.0.0" || len(r.Capabilities) == 0 {
			t.Fatalf("%s %s: envelope without schemaVersion or capabilities: %+v", verb, args, r)
		}
		if len(r.Denials) > 0 {
			if len(r.DenyReasons) != len(r.Denials) || r.SuggestedAction == nil || r.SuggestedAction.Verb == "" {
				t.Fatalf("%s %s: a denial not explained: reasons %v, suggestion %+v", verb, args, r.DenyReasons, r.SuggestedAction)
			}
			for _, d := range r.Denials {
				if d.Code == "" || d.Rule == "" || d.Message == "" {
					t.Fatalf("%s %s: an unstructured denial %+v", verb, args, d)
				}
			}
			if r.WorkID == work.WorkID && r.State != state {
				t.Fatalf("%s %s: denied (%s) but the state moved from %s to %s", verb, args, r.Denials[0].Code, state, r.State)
			}
			if after := filesHash(t, ws); after != before {
				t.Fatalf("%s %s: denied (%s) but the workspace changed", verb, args, r.Denials[0].Code)
			}
		}
		if r.WorkID == work.WorkID {
			follow(r)
		}
		if state == "COMPLETED" {
			start(t)
		}
	})
}

// withEnvelope returns a submit_execution_plan's args with the envelope
// fields its planGraph leaves out taken from env; any other args unchanged.
func withEnvelope(verb string, args json.RawMessage, env map[string]any) any {
	var m map[string]any
	if verb != "submit_execution_plan" || json.Unmarshal(args, &m) != nil {
		return args
	}
	plan, ok := m["planGraph"].(map[string]any)
	if !ok {
		return args
	}
	for k, v := range env {
		if _, set := plan[k]; !set {
			plan[k] = v
		}
	}
	return m
}

// filesHash hashes the workspace's files outside mcpc's runtime folder.
func filesHash(t *testing.T, ws string) [32]byte {
	h := sha256.New()
	err := filepath.WalkDir(ws, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// .ai/tmp is runtime state; .ai/memory learns from denials by design
		// (candidates from friction).
		if d.IsDir() && (path == filepath.Join(ws, ".ai", "tmp") || path == filepath.Join(ws, ".ai", "memory")) {
			return fs.SkipDir
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h.Write([]byte(path + "\x00"))
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}
