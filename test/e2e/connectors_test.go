package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/protocol"
)

// connectorsData holds recorded, real-shaped answers: a Jira Cloud v3 issue
// (ADF description, acceptance criteria in a custom field, issue links) and
// an OpenAPI 3.1 document.
const connectorsData = "testdata/connectors/"

// jiraToken is the token the tests configure; no file mcpc writes, nor its
// log, may hold it.
const jiraToken = "jira-pat-7f3c1e9a5b2d4c6e8f0a1b3c5d7e9f21"

// jiraServer replays the recorded issue on loopback. mode picks how it
// answers: "ok", "revoked" (401 to every token) or "limited" (429 with a
// Retry-After past the connectors' budget).
type jiraServer struct {
	*httptest.Server
	mode  atomic.Value
	calls atomic.Int32
}

func newJiraServer(t *testing.T) *jiraServer {
	t.Helper()
	issue, err := os.ReadFile(connectorsData + "jira-SHOP-42.json")
	must(t, err)
	s := &jiraServer{}
	s.mode.Store("ok")
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.calls.Add(1)
		switch s.mode.Load() {
		case "revoked":
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"errorMessages":["token %s is revoked"]}`, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
			return
		case "limited":
			w.Header().Set("Retry-After", "60")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		case "hanging":
			<-r.Context().Done() // never answers; the client gives up
			return
		case "missing":
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"errorMessages":["Issue does not exist or you do not have permission to see it."],"errors":{}}`))
			return
		case "garbled":
			w.Write([]byte(`<html><body>Log in to Jira</body></html>`))
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+jiraToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if r.URL.Path != "/rest/api/3/issue/SHOP-42" {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"errorMessages":["Issue does not exist or you do not have permission to see it."],"errors":{}}`))
			return
		}
		w.Header().Set("ETag", `"shop-42-v1"`)
		w.Header().Set("Content-Type", "application/json;charset=UTF-8")
		w.Write(issue)
	}))
	t.Cleanup(s.Close)
	return s
}

// connectorWorkspace is the example shop with the Jira connector pointed at
// srv, the token in .ai/auth/jira.token and the orders API contract in the
// repository.
func connectorWorkspace(t *testing.T, srv *jiraServer) string {
	t.Helper()
	ws := newWorkspace(t)
	roomyBudget(t, ws)
	spec, err := os.ReadFile(connectorsData + "orders-openapi-3.1.yaml")
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(ws, "api"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, "api", "orders.openapi.yaml"), spec, 0o644))
	must(t, os.MkdirAll(filepath.Join(ws, ".ai", "auth"), 0o700))
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "auth", "jira.token"), []byte(jiraToken+"\n"), 0o600))
	cfg := map[string]any{"connectors": map[string]any{
		"timeoutMs": 4000, "requestTimeoutMs": 500, "maxRetries": 1,
		"jira":    map[string]any{"baseUrl": srv.URL, "acceptanceCriteriaFields": []string{"customfield_10034"}},
		"openapi": map[string]any{"specs": []string{"api/orders.openapi.yaml"}},
	}}
	raw, _ := json.Marshal(cfg)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), raw, 0o644))
	return ws
}

const connectorPrompt = "Implement SHOP-42: the orders grid shows each order's fulfilment status from getOrder"

type packAttachment struct {
	ArtifactID string `json:"artifactId"`
	Type       string `json:"type"`
	Ref        string `json:"ref"`
	Caption    string `json:"caption"`
	Citation   *struct{ Source, Ref string }
	Content    json.RawMessage `json:"content"`
}

func attachmentsOf(t *testing.T, r *protocol.TurnResponse) []packAttachment {
	t.Helper()
	raw, _ := json.Marshal(r.ContextPack["attachments"])
	var out []packAttachment
	must(t, json.Unmarshal(raw, &out))
	return out
}

type packRequirements struct {
	Fetched struct {
		Jira    []string `json:"jira"`
		Swagger []string `json:"swagger"`
	} `json:"fetched"`
	Insufficiencies []struct {
		Source, Ref, Code, Message, Remediation string
	} `json:"insufficiencies"`
}

func requirementsOf(t *testing.T, r *protocol.TurnResponse) packRequirements {
	t.Helper()
	var out packRequirements
	raw, _ := json.Marshal(r.ContextPack["requirements"])
	must(t, json.Unmarshal(raw, &out))
	return out
}

// citingPlan is the demo plan moved onto a file of this pack, citing refs.
func citingPlan(init *protocol.TurnResponse, citations ...map[string]any) map[string]any {
	plan := demo.Plan(envelopeOf(init), true)
	target := ""
	for _, f := range packFiles(init) {
		if strings.HasPrefix(f, "src/") {
			target = f
			break
		}
	}
	nodes := plan["nodes"].([]any)
	change := nodes[0].(map[string]any)
	change["targetFile"] = target
	change["codeEvidence"] = []any{map[string]any{"file": target, "startLine": 1, "endLine": 1}}
	cites := []any{map[string]any{"source": "prompt", "ref": "originalPrompt"}}
	for _, c := range citations {
		cites = append(cites, c)
	}
	change["citations"] = cites
	plan["knowledgeStrategyReasons"] = []any{map[string]any{"reason": "the ticket and its operation", "evidenceRefs": []string{target}}}
	return plan
}

// TestConnectors: the ticket the prompt names and the operation it
// references reach the pack as cited attachments, select the API contract
// strategy, and are what a plan may cite; a citation of anything else is
// denied. The token is nowhere mcpc writes.
func TestConnectors(t *testing.T) {
	srv := newJiraServer(t)
	ws := connectorWorkspace(t, srv)
	a, log := startLogged(t, ws, "--log-level", "debug")
	init := a.initialize(connectorPrompt, "orders-grid")
	if init.Strategy["strategyId"] != "api_contract_feature" {
		t.Errorf("strategy %v, want api_contract_feature (an operation was fetched)", init.Strategy["strategyId"])
	}
	req := requirementsOf(t, init)
	if !slices.Equal(req.Fetched.Jira, []string{"SHOP-42"}) || !slices.Equal(req.Fetched.Swagger, []string{"GET /orders/{orderId}"}) || len(req.Insufficiencies) != 0 {
		t.Fatalf("requirements %+v", req)
	}
	atts := attachmentsOf(t, init)
	var ticket, op *packAttachment
	for i := range atts {
		switch {
		case atts[i].Citation == nil:
		case atts[i].Citation.Source == "jira" && atts[i].Citation.Ref == "SHOP-42":
			ticket = &atts[i]
		case atts[i].Citation.Source == "swagger" && atts[i].Citation.Ref == "GET /orders/{orderId}":
			op = &atts[i]
		}
	}
	if ticket == nil || op == nil {
		t.Fatalf("the pack's attachments lack the ticket or the operation: %+v", atts)
	}
	for _, want := range []string{"Given an order with status SHIPPED", "SHOP-40", "orders-service", "fulfilmentStatus"} {
		if !strings.Contains(string(ticket.Content), want) {
			t.Errorf("the ticket's slice lacks %q: %s", want, ticket.Content)
		}
	}
	for _, want := range []string{`"orderId"`, `"SHIPPED"`, `"OrderLine"`, `"404"`} {
		if !strings.Contains(string(op.Content), want) {
			t.Errorf("the operation's slice lacks %s: %s", want, op.Content)
		}
	}
	for _, x := range []*packAttachment{ticket, op} {
		onDisk, err := os.ReadFile(filepath.Join(ws, x.Ref))
		var stored, listed any
		if err != nil || json.Unmarshal(onDisk, &stored) != nil || json.Unmarshal(x.Content, &listed) != nil || !reflect.DeepEqual(stored, listed) {
			t.Errorf("attachment %s is not stored as listed: %v", x.Ref, err)
		}
	}

	unfetched := a.turn("submit_execution_plan", map[string]any{"planGraph": citingPlan(init,
		map[string]any{"source": "jira", "ref": "SHOP-42"}, map[string]any{"source": "jira", "ref": "SHOP-99"})})
	mustDeny(t, unfetched, "PLAN_CITATION_UNFETCHED")
	if len(unfetched.Denials) != 1 || unfetched.Denials[0].Path != "args.planGraph.nodes[0].citations[2]" {
		t.Errorf("denials %+v", unfetched.Denials)
	}
	mustDeny(t, a.turn("submit_execution_plan", map[string]any{"planGraph": citingPlan(init,
		map[string]any{"source": "swagger", "ref": "DELETE /orders/{orderId}"})}), "PLAN_CITATION_UNFETCHED")
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": citingPlan(init,
		map[string]any{"source": "jira", "ref": "SHOP-42"}, map[string]any{"source": "swagger", "ref": "GET /orders/{orderId}"})}))

	// A second work within the cache's validity is answered from
	// .ai/tmp/connectors, without asking Jira again.
	calls := srv.calls.Load()
	b := startServer(t, ws)
	again := b.initialize(connectorPrompt, "orders")
	if got := requirementsOf(t, again).Fetched.Jira; !slices.Equal(got, []string{"SHOP-42"}) || srv.calls.Load() != calls {
		t.Errorf("the cached ticket: fetched %v, %d more calls", got, srv.calls.Load()-calls)
	}
	if !strings.Contains(log.String(), "connector request") {
		t.Errorf("the debug log has no connector trace:\n%s", log)
	}
	noTokenAnywhere(t, ws, log.String())
}

// TestConnectorFailures: a revoked token, a rate-limited server, one that
// never answers, an unknown ticket and a body that is not an issue leave
// the turn allowed, with an insufficiency saying why and what to do, and no
// token anywhere.
func TestConnectorFailures(t *testing.T) {
	for _, tc := range []struct {
		note, mode, code, remediation string
	}{
		{"revoked token", "revoked", "unauthorized", "Set a valid token in .ai/auth/jira.token"},
		{"rate limited", "limited", "rate_limited", "Retry-After"},
		{"a server that never answers", "hanging", "timeout", "connectors.timeoutMs"},
		{"an unknown ticket", "missing", "not_found", "Check that SHOP-42 exists"},
		{"a body that is not an issue", "garbled", "malformed", "connectors.jira.baseUrl"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			srv := newJiraServer(t)
			srv.mode.Store(tc.mode)
			ws := connectorWorkspace(t, srv)
			a, log := startLogged(t, ws, "--log-level", "debug")
			init := a.initialize(connectorPrompt, "orders-grid")
			req := requirementsOf(t, init)
			if len(req.Insufficiencies) != 1 {
				t.Fatalf("insufficiencies %+v", req.Insufficiencies)
			}
			in := req.Insufficiencies[0]
			if in.Source != "jira" || in.Ref != "SHOP-42" || in.Code != tc.code || !strings.Contains(in.Remediation, tc.remediation) || in.Message == "" {
				t.Errorf("insufficiency %+v", in)
			}
			if len(req.Fetched.Jira) != 0 || !slices.Equal(req.Fetched.Swagger, []string{"GET /orders/{orderId}"}) {
				t.Errorf("fetched %+v: the spec does not depend on Jira", req.Fetched)
			}
			if tc.mode == "limited" && srv.calls.Load() != 1 {
				t.Errorf("%d calls: a Retry-After past the budget must not be waited for", srv.calls.Load())
			}
			mustDeny(t, a.turn("submit_execution_plan", map[string]any{"planGraph": citingPlan(init,
				map[string]any{"source": "jira", "ref": "SHOP-42"})}), "PLAN_CITATION_UNFETCHED")
			noTokenAnywhere(t, ws, log.String())
		})
	}
}

// noTokenAnywhere reads every file under the workspace but the token file
// (the store, decision records, packs, attachments, the connectors' cache,
// the trace ledger) and the server's log.
func noTokenAnywhere(t *testing.T, ws, log string) {
	t.Helper()
	if strings.Contains(log, jiraToken) {
		t.Errorf("the server's log holds the token")
	}
	tokenFile := filepath.Join(ws, ".ai", "auth", "jira.token")
	files := 0
	must(t, filepath.WalkDir(ws, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == tokenFile {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		if bytes.Contains(data, []byte(jiraToken)) {
			t.Errorf("%s holds the token", p)
		}
		return nil
	}))
	if files < 5 {
		t.Fatalf("only %d files read", files)
	}
}
