package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/app"
	"github.com/mcpc/mcpc/internal/protocol"
)

// spec500 is an OpenAPI 3.1 document of 500 operations (250 paths, GET and
// PUT each) whose schemas reference shared components; variant changes its
// bytes so a cold run cannot reuse a parse.
func spec500(variant int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `{"openapi": "3.1.0", "info": {"title": "bench", "version": "1.%d"}, "paths": {`, variant)
	for i := 0; i < 250; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/resources%d/{id}": {
  "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
  "get": {"operationId": "getResource%d", "tags": ["group%d"], "summary": "Read resource %d",
    "parameters": [{"name": "expand", "in": "query", "schema": {"type": "array", "items": {"type": "string"}}}],
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Resource"}}}},
                  "404": {"$ref": "#/components/responses/Problem"}}},
  "put": {"operationId": "putResource%d", "tags": ["group%d"], "summary": "Replace resource %d",
    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Resource"}}}},
    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Resource"}}}},
                  "422": {"$ref": "#/components/responses/Problem"}}}}`, i, i, i%20, i, i, i%20, i)
	}
	b.WriteString(`}, "components": {
  "responses": {"Problem": {"description": "problem", "content": {"application/problem+json": {"schema": {"type": "object", "properties": {"title": {"type": "string"}, "status": {"type": "integer"}}}}}}},
  "schemas": {
    "Money": {"type": "object", "required": ["amount"], "properties": {"amount": {"type": "string"}, "currency": {"type": "string"}}},
    "Line": {"type": "object", "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}, "price": {"$ref": "#/components/schemas/Money"}}},
    "Resource": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}, "status": {"enum": ["A", "B", "C"]},
      "lines": {"type": "array", "items": {"$ref": "#/components/schemas/Line"}}, "parent": {"anyOf": [{"$ref": "#/components/schemas/Resource"}, {"type": "null"}]}}}}}}`)
	return []byte(b.String())
}

// connectorBench is a workspace whose connectors point at a loopback server
// replaying the recorded Jira issue and serving a 500-operation spec.
type connectorBench struct {
	ws      string
	variant atomic.Int64
	specs   atomic.Int64 // spec downloads
	issues  atomic.Int64 // issue downloads
}

func newConnectorBench(b *testing.B, configured bool, ttlSec int) (*connectorBench, *app.App) {
	b.Helper()
	issue, err := os.ReadFile("../test/e2e/testdata/connectors/jira-SHOP-42.json")
	if err != nil {
		b.Fatal(err)
	}
	cb := &connectorBench{ws: example(b)}
	var specBytes atomic.Value
	specBytes.Store(spec500(0))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/rest/api/3/issue/SHOP-42":
			cb.issues.Add(1)
			if r.Header.Get("If-None-Match") == `"v1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", `"v1"`)
			w.Write(issue)
		case "/openapi.json":
			cb.specs.Add(1)
			v := cb.variant.Load()
			if r.Header.Get("If-None-Match") == fmt.Sprintf(`"spec-%d"`, v) {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			w.Header().Set("ETag", fmt.Sprintf(`"spec-%d"`, v))
			w.Write(spec500(int(v)))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	b.Cleanup(srv.Close)
	if configured {
		os.MkdirAll(filepath.Join(cb.ws, ".ai", "auth"), 0o700)
		os.WriteFile(filepath.Join(cb.ws, ".ai", "auth", "jira.token"), []byte("bench-token"), 0o600)
		cfg, _ := json.Marshal(map[string]any{
			"budget": map[string]any{"maxTokens": 1 << 30, "workMaxTokens": 1 << 30, "sessionMaxTokens": 1 << 40},
			"connectors": map[string]any{"timeoutMs": 10000, "requestsPerSecond": 100000, "cacheTtlSec": ttlSec,
				"jira":    map[string]any{"baseUrl": srv.URL, "acceptanceCriteriaFields": []string{"customfield_10034"}},
				"openapi": map[string]any{"specs": []string{srv.URL + "/openapi.json"}}},
		})
		os.WriteFile(filepath.Join(cb.ws, ".ai", "config", "env.local.json"), cfg, 0o644)
	} else {
		cfg, _ := json.Marshal(map[string]any{"budget": map[string]any{"maxTokens": 1 << 30, "workMaxTokens": 1 << 30, "sessionMaxTokens": 1 << 40}})
		os.WriteFile(filepath.Join(cb.ws, ".ai", "config", "env.local.json"), cfg, 0o644)
	}
	a, err := app.Open(context.Background(), app.Options{Workspace: cb.ws})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Close() })
	return cb, a
}

var connectorInit = map[string]any{"verb": "initialize_work",
	"originalPrompt": "Implement SHOP-42 with getResource17 in the orders grid", "args": map[string]any{"lexemes": []string{"orders-grid"}}}

// BenchmarkInitializeWorkConnectors measures what the connectors add to
// initialize_work: one Jira ticket and one 500-operation spec (by URL) from
// a loopback server. none: no connector configured (the baseline); cold:
// nothing cached and a spec never parsed (new bytes each time); warm: both
// answers fresh in .ai/tmp/connectors and the spec's parse reused;
// revalidated: past the TTL, the spec answered 304 to its ETag.
func BenchmarkInitializeWorkConnectors(b *testing.B) {
	b.Run("none", func(b *testing.B) {
		_, a := newConnectorBench(b, false, 0)
		mustTurn(b, a, connectorInit)
		loopTurns(b, a, connectorInit)
	})
	b.Run("cold", func(b *testing.B) {
		cb, a := newConnectorBench(b, true, 300)
		mustTurn(b, a, connectorInit)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			os.RemoveAll(filepath.Join(cb.ws, ".ai", "tmp", "connectors"))
			cb.variant.Add(1)
			b.StartTimer()
			checkFetched(b, mustTurn(b, a, connectorInit))
		}
	})
	b.Run("warm", func(b *testing.B) {
		cb, a := newConnectorBench(b, true, 300)
		checkFetched(b, mustTurn(b, a, connectorInit))
		before := cb.specs.Load() + cb.issues.Load()
		loopTurns(b, a, connectorInit)
		if after := cb.specs.Load() + cb.issues.Load(); after != before {
			b.Fatalf("a warm run asked the server %d times", after-before)
		}
	})
	// fresh-*: each initialize_work is the first of a new process (a new
	// App on the same workspace), as with every stdio client; fresh-warm
	// finds the answers and the spec's operation index under
	// .ai/tmp/connectors, so it parses nothing.
	for _, configured := range []bool{false, true} {
		name := "fresh-none"
		if configured {
			name = "fresh-warm"
		}
		b.Run(name, func(b *testing.B) {
			cb, a := newConnectorBench(b, configured, 300)
			mustTurn(b, a, connectorInit)
			a.Close()
			if configured {
				waitForIndex(b, cb.ws)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				fresh, err := app.Open(context.Background(), app.Options{Workspace: cb.ws})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				r := mustTurn(b, fresh, connectorInit)
				b.StopTimer()
				if configured {
					checkFetched(b, r)
				}
				fresh.Close()
				b.StartTimer()
			}
		})
	}
	b.Run("revalidated", func(b *testing.B) {
		_, a := newConnectorBench(b, true, 0)
		checkFetched(b, mustTurn(b, a, connectorInit))
		loopTurns(b, a, connectorInit)
	})
}

// waitForIndex waits for the spec's operation index the first parse
// writes in the background.
func waitForIndex(b *testing.B, ws string) {
	b.Helper()
	for range 200 {
		if m, _ := filepath.Glob(filepath.Join(ws, ".ai", "tmp", "connectors", "openapi-*.index.json")); len(m) > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	b.Fatal("no spec index was written")
}

// checkFetched fails the run unless the ticket and the operation reached
// the pack: a figure for a fetch that failed would measure nothing.
func checkFetched(b *testing.B, r *protocol.TurnResponse) {
	b.Helper()
	raw, _ := json.Marshal(r.ContextPack["requirements"])
	if !strings.Contains(string(raw), `"jira":["SHOP-42"]`) || !strings.Contains(string(raw), `"swagger":["GET /resources17/{id}"]`) {
		b.Fatalf("requirements %s", raw)
	}
}
