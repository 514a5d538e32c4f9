package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// treeHash hashes the workspace's files (mcpc's own decision records and
// database left out: they are kept for every turn by design).
func treeHash(t *testing.T, ws string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(ws, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(ws, path)
		if d.IsDir() {
			// .ai/tmp is mcpc's runtime state; .ai/memory is what memory
			// learns from denials (candidates from friction), by design.
			if rel == filepath.Join(".ai", "tmp") || rel == filepath.Join(".ai", "memory") {
				return fs.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil // FIFOs and the like
		}
		h.Write([]byte(rel + "\x00"))
		h.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestBadInput: every malformed request is a structured denial, the server
// keeps running and nothing in the repository, the pack or the state changes.
func TestBadInput(t *testing.T) {
	ws := newWorkspace(t)
	// The flood below (1.3M tokens) must block its own agent only; past the
	// work's cap every agent would be blocked, as TestBudget shows.
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(`{"budget": {"workMaxTokens": 10000000}}`), 0o644))
	a := startServer(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	packRef := init.ContextPack["ref"].(string)
	packBefore, _ := os.ReadFile(filepath.Join(ws, packRef))
	before := treeHash(t, ws)
	env := envelopeOf(init)

	cases := []struct {
		note string
		req  map[string]any
		code string
	}{
		{"unknown verb", map[string]any{"verb": "rm_rf"}, "UNKNOWN_VERB"},
		{"retired v1 verb", map[string]any{"verb": "list_scoped_files"}, "UNKNOWN_VERB"},
		{"empty verb", map[string]any{"verb": ""}, "INVALID_ARGS"},
		{"verb of the wrong type", map[string]any{"verb": 7}, "INVALID_ARGS"},
		{"missing targetFile", map[string]any{"verb": "read_file_lines", "args": map[string]any{}}, "INVALID_ARGS"},
		{"targetFile of the wrong type", map[string]any{"verb": "read_file_lines", "args": map[string]any{"targetFile": 42}}, "INVALID_ARGS"},
		{"startLine zero", map[string]any{"verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target, "startLine": 0}}, "INVALID_ARGS"},
		{"startLine past the int64 range", map[string]any{"verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target, "startLine": 1e19}}, "INVALID_ARGS"},
		{"endLine past the int64 range", map[string]any{"verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target, "startLine": 1, "endLine": 1e19}}, "INVALID_ARGS"},
		{"search files not a list", map[string]any{"verb": "search_codebase_text", "args": map[string]any{"pattern": "adp", "files": demo.Target}}, "INVALID_ARGS"},
		{"args not an object", map[string]any{"verb": "read_file_lines", "args": "src/app.ts"}, "INVALID_ARGS"},
		{"unknown envelope field", map[string]any{"verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target}, "sudo": true}, "INVALID_ARGS"},
		{"scratch without content", map[string]any{"verb": "write_scratch_file", "args": map[string]any{"relativePath": "a.md"}}, "INVALID_ARGS"},
		{"plan not an object", map[string]any{"verb": "submit_execution_plan", "args": map[string]any{"planGraph": "do it"}}, "INVALID_ARGS"},
		{"plan nodes not a list", map[string]any{"verb": "submit_execution_plan", "args": map[string]any{"planGraph": map[string]any{"nodes": "x"}}}, "INVALID_ARGS"},
		{"plan with a bad citation source", map[string]any{"verb": "submit_execution_plan", "args": map[string]any{"planGraph": withNode(env, map[string]any{
			"nodeId": "c", "kind": "change", "citations": []any{map[string]any{"source": "vibes", "ref": "x"}}})}}, "INVALID_ARGS"},
		{"plan with duplicate ids and a cycle", map[string]any{"verb": "submit_execution_plan", "args": map[string]any{"planGraph": cyclicPlan(env)}}, "PLAN_GRAPH_INVALID"},
		{"plan with missing fields", map[string]any{"verb": "submit_execution_plan", "args": map[string]any{"planGraph": withNode(env, map[string]any{"nodeId": "c", "kind": "change"})}}, "PLAN_MISSING_REQUIRED_FIELDS"},
		{"plan outside the pack", map[string]any{"verb": "submit_execution_plan", "args": map[string]any{"planGraph": outsidePlan(env)}}, "PLAN_SCOPE_VIOLATION"},
		{"plan validating a .ts change with a check of templates", map[string]any{"verb": "submit_execution_plan", "args": map[string]any{"planGraph": uncoveredPlan(env)}}, "PLAN_VERIFICATION_WEAK"},
		{"escalate without need", map[string]any{"verb": "escalate", "args": map[string]any{}}, "INVALID_ARGS"},
		{"patch before a plan", map[string]any{"verb": "apply_code_patch", "args": map[string]any{"planNodeId": "x", "targetFile": demo.Target, "edits": []any{}}}, "VERB_NOT_AVAILABLE"},
		{"a number no float holds", map[string]any{"verb": "read_file_lines", "args": map[string]any{"targetFile": demo.Target, "startLine": json.RawMessage("1e400")}}, "INVALID_ARGS"},
	}
	for _, tc := range cases {
		t.Run(tc.note, func(t *testing.T) {
			req := map[string]any{"workId": a.work, "agentId": a.id}
			for k, v := range tc.req {
				req[k] = v
			}
			resp := a.send(req)
			mustDeny(t, resp, tc.code)
			// One fault, one denial: a missing argument the schema and
			// invalid-args' required-argument rule both see is reported once.
			seen := map[string]bool{}
			for _, d := range resp.Denials {
				if k := d.Code + " " + d.Path; seen[k] {
					t.Errorf("denied twice at %s: %v", k, resp.DenyReasons)
				} else {
					seen[k] = true
				}
			}
			if tc.note == "a number no float holds" {
				unreadable(t, resp, "could not be decoded")
			}
			if resp.State != "PLANNING" {
				t.Errorf("state moved to %s", resp.State)
			}
		})
	}
	// An oversized request is refused, and still charged to its sender (a
	// separate agent here), but no more than one request may cost: neither
	// its sender nor any other agent is blocked by it.
	big := a.send(map[string]any{"workId": a.work, "agentId": "flooder", "verb": "write_scratch_file",
		"args": map[string]any{"relativePath": "big.md", "content": strings.Repeat("x", 5<<20)}})
	mustDeny(t, big, "INVALID_ARGS")
	mustDeny(t, big, "REQUEST_TOO_LARGE")
	unreadable(t, big, "over the limit")
	if c := big.BudgetStatus.Charged; c.RequestTokens != c.RequestMaxTokens || c.RequestMaxTokens == 0 || big.BudgetStatus.Blocked {
		t.Errorf("the flooding agent was charged %+v (budget %+v)", c, big.BudgetStatus)
	}
	if after := treeHash(t, ws); after != before {
		t.Errorf("bad input changed the workspace")
	}
	if packAfter, _ := os.ReadFile(filepath.Join(ws, packRef)); string(packAfter) != string(packBefore) {
		t.Errorf("bad input changed the context pack")
	}
	// The server still serves.
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
}

// unreadable checks the denial of a request that could not be read whole:
// judged as the verb it named (no UNKNOWN_VERB), for why it could not be
// read, and not for arguments it may well have sent.
func unreadable(t *testing.T, r *protocol.TurnResponse, why string) {
	t.Helper()
	said := false
	for _, d := range r.Denials {
		switch {
		case d.Code == "UNKNOWN_VERB", strings.Contains(d.Message, "requires argument"):
			t.Errorf("an unreadable request was denied with %s: %s", d.Code, d.Message)
		case d.Code == "INVALID_ARGS" && strings.Contains(d.Message, why):
			said = true
		}
	}
	if !said {
		t.Errorf("no INVALID_ARGS saying %q in %v", why, r.DenyReasons)
	}
}

func withNode(env map[string]any, node map[string]any) map[string]any {
	plan := demo.Plan(env, true)
	plan["nodes"] = []any{node}
	return plan
}

func cyclicPlan(env map[string]any) map[string]any {
	plan := demo.Plan(env, true)
	nodes := plan["nodes"].([]any)
	change := nodes[0].(map[string]any)
	change["dependsOn"] = []string{"validate-alert"}
	dup := map[string]any{}
	for k, v := range change {
		dup[k] = v
	}
	dup["dependsOn"] = []string{"ghost"}
	plan["nodes"] = append(nodes, dup)
	return plan
}

// uncoveredPlan validates the change of a .ts file only with
// templates-balanced, which covers **/*.html (the example's repo.json).
func uncoveredPlan(env map[string]any) map[string]any {
	plan := demo.Plan(env, true)
	nodes := plan["nodes"].([]any)
	nodes[0].(map[string]any)["targetFile"] = "src/app/dashboard/dashboard.component.ts"
	hooks := []any{map[string]any{"recipeId": "run_targeted_validation", "params": map[string]any{"commandId": "templates-balanced"}}}
	nodes[0].(map[string]any)["verificationHooks"] = hooks
	nodes[1].(map[string]any)["verificationHooks"] = hooks
	return plan
}

func outsidePlan(env map[string]any) map[string]any {
	plan := demo.Plan(env, true)
	change := plan["nodes"].([]any)[0].(map[string]any)
	change["targetFile"] = "../outside.html"
	return plan
}

// TestBadInputAnswersStaySmall: what a hostile request sends does not come
// back multiplied. A megabyte verb or agentId was quoted in each denial,
// its reason and the suggested action (a 4 MB verb: a 25 MB answer), and
// each of 5,000 malformed edits was four denials (a 51 MB answer); the
// answer names such values by their head and lists the first shape
// errors with a count of the rest.
func TestBadInputAnswersStaySmall(t *testing.T) {
	ws := newWorkspace(t)
	a := startServer(t, ws)
	a.initialize(demo.Prompt, "adp-alert")
	huge := strings.Repeat("Q", 1<<20)
	edits := make([]any, 5000)
	for i := range edits {
		edits[i] = map[string]any{"kind": "codemod", "codemod": fmt.Sprintf("c%d", i)}
	}
	lexemes := make([]any, 5000)
	for i := range lexemes {
		lexemes[i] = map[string]any{"n": i}
	}
	cases := []struct {
		note string
		req  map[string]any
		code string
	}{
		{"a megabyte verb", map[string]any{"verb": huge}, "UNKNOWN_VERB"},
		{"a megabyte workId", map[string]any{"verb": "read_file_lines", "workId": huge, "args": map[string]any{"targetFile": demo.Target}}, "WORK_NOT_FOUND"},
		{"a megabyte agentId and runSessionId", map[string]any{"verb": "initialize_work", "agentId": huge, "runSessionId": huge, "originalPrompt": "x"}, "INVALID_ARGS"},
		{"5,000 malformed edits", map[string]any{"verb": "apply_code_patch", "workId": a.work, "agentId": a.id,
			"args": map[string]any{"planNodeId": "n", "targetFile": demo.Target, "edits": edits}}, "INVALID_ARGS"},
		{"5,000 lexemes of the wrong type", map[string]any{"verb": "initialize_work", "originalPrompt": "x", "args": map[string]any{"lexemes": lexemes}}, "INVALID_ARGS"},
	}
	for _, tc := range cases {
		t.Run(tc.note, func(t *testing.T) {
			resp := a.send(tc.req)
			mustDeny(t, resp, tc.code)
			raw, err := json.Marshal(resp)
			must(t, err)
			if len(raw) > 64<<10 {
				t.Errorf("a %s request got a %d-byte answer", tc.note, len(raw))
			}
			if strings.Contains(string(raw), huge[:1000]) {
				t.Errorf("the answer quotes the sent value whole")
			}
			if len(resp.Denials) > 25 {
				t.Errorf("%d denials", len(resp.Denials))
			}
			if tc.note == "5,000 malformed edits" && !slices.ContainsFunc(resp.DenyReasons, func(r string) bool {
				return strings.Contains(r, "more shape errors are not listed")
			}) {
				t.Errorf("the errors left out are not counted: %v", resp.DenyReasons)
			}
		})
	}
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
}
