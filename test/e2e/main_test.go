// Package e2e drives the real mcpc binary over real stdio, as an MCP client
// does: a real embedded store, real OPA, the bundled example workspace.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/mcpc/mcpc/examples"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/sandbox"
	"github.com/mcpc/mcpc/schemas"

	// The binary under test is built from internal/cli and what it imports;
	// importing it puts that source in this package's build hash, so `go
	// test` never reuses a cached pass after the server changed (as in
	// test/clients).
	_ "github.com/mcpc/mcpc/internal/cli"
)

var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcpc-e2e-bin-*")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "mcpc")
	build := exec.Command("go", "build", "-o", binary, "github.com/mcpc/mcpc/cmd/mcpc")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mcpc:", err)
		os.Exit(1)
	}
	// On a machine that cannot make a sandbox, the servers of the tests
	// that validate or commit for other reasons run their commands
	// unsandboxed (the operator's MCPC_SANDBOX_ALLOW_UNSANDBOXED); the
	// sandbox suite skips, and its fallback tests set their own.
	if err := sandbox.MachineCannotSandbox(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: no sandbox on this machine, other tests run commands unsandboxed:", err)
		os.Setenv("MCPC_SANDBOX_ALLOW_UNSANDBOXED", "true")
	}
	// The gathering steps (ranking, search, dry runs) end at the store's
	// lock bound, 2 s by default. A test machine loaded by the rest of
	// `go test ./...` can take longer than that to rank the example, and
	// a pack cut short then lacks the file a test reads next; the tests of
	// the bound itself set their own (startWithLockLog, failpoint servers),
	// which come later in the environment and win.
	if os.Getenv("MCPC_STORE_LOCK_TIMEOUT_MS") == "" {
		os.Setenv("MCPC_STORE_LOCK_TIMEOUT_MS", "6000")
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// policiesDir is the source tree's policies/ folder.
func policiesDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "policies")
}

// newWorkspace copies the example into a fresh temporary workspace.
func newWorkspace(t *testing.T) string {
	t.Helper()
	ws := t.TempDir()
	if err := examples.CopyAngularShop(ws); err != nil {
		t.Fatal(err)
	}
	return ws
}

// agent is one MCP client connected to its own `mcpc serve` process.
type agent struct {
	t      *testing.T
	c      *mcp.Client
	work   string
	id     string
	lastTx *protocol.TurnResponse
}

func startServer(t *testing.T, ws string, extra ...string) *agent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	args := append([]string{"serve", "--workspace", ws}, extra...)
	c, err := mcp.Dial(ctx, exec.Command(binary, args...))
	if err != nil {
		t.Fatalf("starting mcpc serve: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return &agent{t: t, c: c}
}

// turn sends a request (workId and agentId filled in unless set) and fails
// the test on a protocol error.
func (a *agent) turn(verb string, args map[string]any, fields ...any) *protocol.TurnResponse {
	a.t.Helper()
	req := map[string]any{"verb": verb}
	if a.work != "" {
		req["workId"] = a.work
	}
	if a.id != "" {
		req["agentId"] = a.id
	}
	if args != nil {
		req["args"] = args
	}
	for i := 0; i+1 < len(fields); i += 2 {
		k := fields[i].(string)
		if fields[i+1] == nil {
			delete(req, k)
			continue
		}
		req[k] = fields[i+1]
	}
	return a.send(req)
}

func (a *agent) send(req any) *protocol.TurnResponse {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	resp, err := a.c.Turn(ctx, req)
	if os.Getenv("E2E_TIMING") != "" {
		a.t.Logf("%v %v", time.Since(start), req)
	}
	if err != nil {
		a.t.Fatalf("controller_turn: %v", err)
	}
	a.lastTx = resp
	checkResponseSchema(a.t, resp)
	return resp
}

var responseSchema = func() *jsonschema.Schema {
	s, err := schemas.Compile("turn-response.schema.json")
	if err != nil {
		panic(err)
	}
	return s
}()

// checkResponseSchema validates every response against the published
// TurnResponse schema.
func checkResponseSchema(t *testing.T, resp *protocol.TurnResponse) {
	t.Helper()
	raw, _ := json.Marshal(resp)
	var doc any
	_ = json.Unmarshal(raw, &doc)
	if probs := schemas.Check(responseSchema, doc); len(probs) > 0 {
		t.Errorf("the response does not match schemas/turn-response.schema.json: %v", probs)
	}
}

func (a *agent) initialize(prompt string, lexemes ...string) *protocol.TurnResponse {
	a.t.Helper()
	resp := a.turn("initialize_work", map[string]any{"lexemes": lexemes}, "originalPrompt", prompt)
	mustAllow(a.t, resp)
	a.work, a.id = resp.WorkID, resp.AgentID
	return resp
}

func mustAllow(t *testing.T, r *protocol.TurnResponse) {
	t.Helper()
	if len(r.Denials) > 0 || len(r.DenyReasons) > 0 {
		t.Fatalf("want allowed, got denied: %v", r.DenyReasons)
	}
	if e, ok := r.Result["error"]; ok {
		t.Fatalf("allowed but failed: %v", e)
	}
}

// mustDeny checks a denial carries code, is fully structured and suggests
// a next step.
func mustDeny(t *testing.T, r *protocol.TurnResponse, code string) {
	t.Helper()
	if len(r.Denials) == 0 {
		t.Fatalf("want %s, got allowed (result %v)", code, r.Result)
	}
	codes := []string{}
	for i, d := range r.Denials {
		codes = append(codes, d.Code)
		if d.Rule == "" || d.Message == "" || d.Remediation == "" || d.Severity == "" {
			t.Errorf("denial %d is not fully structured: %+v", i, d)
		}
		if !strings.HasPrefix(r.DenyReasons[i], d.Code+": ") {
			t.Errorf("denyReasons[%d] = %q, want it to start with %s", i, r.DenyReasons[i], d.Code)
		}
	}
	if !slices.Contains(codes, code) {
		t.Fatalf("want %s among %v (%v)", code, codes, r.DenyReasons)
	}
	if r.SuggestedAction == nil || r.SuggestedAction.Verb == "" {
		t.Errorf("a denial must carry suggestedAction, got %+v", r.SuggestedAction)
	}
}

func packFiles(r *protocol.TurnResponse) []string {
	raw, _ := json.Marshal(r.ContextPack["files"])
	var files []string
	_ = json.Unmarshal(raw, &files)
	return files
}

func envelopeOf(r *protocol.TurnResponse) map[string]any {
	env, _ := r.PlanGraphSchema["envelope"].(map[string]any)
	return env
}
