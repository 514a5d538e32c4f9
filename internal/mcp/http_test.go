package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/protocol"
)

// TestHTTPRefusesBrowserCrossOrigin: a web page the user visits must not be
// able to drive the local server; a client that is not a browser can.
func TestHTTPRefusesBrowserCrossOrigin(t *testing.T) {
	srv := httptest.NewServer(HTTPHandler(NewServer(fakeTurner{}, Options{}), HTTPOptions{}))
	defer srv.Close()
	for _, tc := range []struct {
		note    string
		headers map[string]string
		want    int
	}{
		{"a client that is not a browser", nil, http.StatusOK},
		{"a page of another site", map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"another origin without fetch metadata", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if resp := post(t, srv.URL, httpInitialize, tc.headers); resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}

// TestHTTPClosesIdleSessions: a session left without requests for the idle
// timeout is closed (its id answers 404, so its client starts a new one);
// one in use is kept.
func TestHTTPClosesIdleSessions(t *testing.T) {
	const idle = 300 * time.Millisecond
	srv := httptest.NewServer(HTTPHandler(NewServer(fakeTurner{}, Options{}), HTTPOptions{Idle: idle}))
	defer srv.Close()
	session := func() map[string]string {
		resp := post(t, srv.URL, httpInitialize, nil)
		id := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || id == "" {
			t.Fatalf("initialize: status %d, session %q", resp.StatusCode, id)
		}
		return map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-11-25"}
	}
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	kept, dropped := session(), session()
	for range 6 { // kept is used every idle/3; dropped idles twice the timeout
		time.Sleep(idle / 3)
		if resp := post(t, srv.URL, ping, kept); resp.StatusCode != http.StatusOK {
			t.Fatalf("a session in use: status %d", resp.StatusCode)
		}
	}
	if resp := post(t, srv.URL, ping, dropped); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an idle session: status %d, want 404", resp.StatusCode)
	}
}

const httpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// post sends one JSON-RPC message as a streamable HTTP client would.
func post(t *testing.T, url, body string, headers map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// TestHTTPGuard: Host, Origin and the bearer token are checked before the
// SDK sees a request, on every address.
func TestHTTPGuard(t *testing.T) {
	const token = "0123456789abcdef-secret"
	h := HTTPHandler(NewServer(fakeTurner{}, Options{}), HTTPOptions{
		Addr: "127.0.0.1:0", Token: token,
		AllowedHosts: []string{"mcpc.internal"}, AllowedOrigins: []string{"https://ide.example"},
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	bearer := "Bearer " + token
	for _, tc := range []struct {
		note    string
		headers map[string]string
		want    int
	}{
		{"no token", nil, http.StatusUnauthorized},
		{"a wrong token", map[string]string{"Authorization": "Bearer 0123456789abcdef-secreT"}, http.StatusUnauthorized},
		{"a token prefix", map[string]string{"Authorization": "Bearer 0123456789abcdef"}, http.StatusUnauthorized},
		{"another scheme", map[string]string{"Authorization": "Basic " + token}, http.StatusUnauthorized},
		{"the token", map[string]string{"Authorization": bearer}, http.StatusOK},
		{"the token, scheme in lower case", map[string]string{"Authorization": "bearer " + token}, http.StatusOK},
		{"a rebinding Host", map[string]string{"Authorization": bearer, "Host": "evil.example"}, http.StatusForbidden},
		{"a rebinding Host without token", map[string]string{"Host": "evil.example:80"}, http.StatusForbidden},
		{"localhost", map[string]string{"Authorization": bearer, "Host": "localhost"}, http.StatusOK},
		{"a configured host", map[string]string{"Authorization": bearer, "Host": "MCPC.internal:8723"}, http.StatusOK},
		{"a foreign Origin", map[string]string{"Authorization": bearer, "Origin": "https://evil.example"}, http.StatusForbidden},
		{"a null Origin", map[string]string{"Authorization": bearer, "Origin": "null"}, http.StatusForbidden},
		{"a configured Origin", map[string]string{"Authorization": bearer, "Origin": "https://ide.example"}, http.StatusOK},
	} {
		t.Run(tc.note, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(httpInitialize))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.headers {
				if k == "Host" {
					req.Host = v
					continue
				}
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}

func TestListenCheck(t *testing.T) {
	for _, tc := range []struct {
		note, addr, token string
		ok                bool
	}{
		{"loopback without token", "127.0.0.1:0", "", true},
		{"localhost without token", "localhost:0", "", true},
		{"ipv6 loopback without token", "[::1]:0", "", true},
		{"every interface without token", "0.0.0.0:8723", "", false},
		{"a host name without token", "mcpc.internal:8723", "", false},
		{"every interface with a token", "0.0.0.0:8723", "0123456789abcdef", true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if err := ListenCheck(tc.addr, tc.token); (err == nil) != tc.ok {
				t.Fatalf("ListenCheck(%q) = %v", tc.addr, err)
			}
		})
	}
}

// sessionTurner records the MCP session each turn and each answer charge
// arrived on.
type sessionTurner struct {
	mu      sync.Mutex
	turns   []string
	charged map[string]int
}

func (s *sessionTurner) Turn(ctx context.Context, _ json.RawMessage) (*protocol.TurnResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, protocol.SessionOf(ctx))
	return &protocol.TurnResponse{WorkID: "w1", AgentID: "a1"}, nil
}

func (s *sessionTurner) ChargeAnswer(ctx context.Context, _ *protocol.TurnResponse, bytes int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.charged[protocol.SessionOf(ctx)] += bytes
}

// TestHTTPSessionIdentity: each streamable HTTP session's turns carry the
// session id the server assigned (what budgets are kept per), whatever the
// request says, and each answer's size is charged to that session.
func TestHTTPSessionIdentity(t *testing.T) {
	turner := &sessionTurner{charged: map[string]int{}}
	srv := httptest.NewServer(HTTPHandler(NewServer(turner, Options{}), HTTPOptions{}))
	defer srv.Close()
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"controller_turn","arguments":{"verb":"x","runSessionId":"run-chosen-by-agent"}}}`
	var ids []string
	for range 2 {
		resp := post(t, srv.URL, httpInitialize, nil)
		id := resp.Header.Get("Mcp-Session-Id")
		h := map[string]string{"Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-11-25"}
		post(t, srv.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)
		if resp := post(t, srv.URL, call, h); resp.StatusCode != http.StatusOK {
			t.Fatalf("tools/call: status %d", resp.StatusCode)
		}
		ids = append(ids, id)
	}
	turner.mu.Lock()
	defer turner.mu.Unlock()
	if len(turner.turns) != 2 || turner.turns[0] != ids[0] || turner.turns[1] != ids[1] || ids[0] == ids[1] || ids[0] == "" {
		t.Fatalf("turns arrived on sessions %q, want the assigned %q", turner.turns, ids)
	}
	for _, id := range ids {
		if turner.charged[id] == 0 {
			t.Errorf("no answer charged to session %s: %v", id, turner.charged)
		}
	}
}
