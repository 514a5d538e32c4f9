package e2e

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const httpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

var servingLine = regexp.MustCompile(`serving MCP at http://([^/]+)/mcp`)

// serveHTTP starts `mcpc serve --http addr` and returns the port it bound.
func serveHTTP(t *testing.T, ws, addr string, env []string, extra ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "--workspace", ws, "--no-warm", "--http", addr}, extra...)...)
	cmd.Env = append(os.Environ(), env...)
	stderr, err := cmd.StderrPipe()
	must(t, err)
	must(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servingLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case hostport, ok := <-found:
		if !ok {
			t.Fatalf("mcpc serve --http %s exited before serving", addr)
		}
		_, port, err := net.SplitHostPort(hostport)
		must(t, err)
		return port
	case <-time.After(30 * time.Second):
		t.Fatalf("mcpc serve --http %s never said where it serves", addr)
	}
	return ""
}

// postMCP sends initialize to 127.0.0.1:port (whatever the bound address)
// with the given headers; a "Host" header overrides the request's Host.
func postMCP(t *testing.T, port string, headers map[string]string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1:"+port+"/mcp", strings.NewReader(httpInit))
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestHTTPAuth: the real binary's HTTP transport refuses requests without
// the bearer token, with a wrong one, with a foreign Host (even on
// loopback) or Origin; the right token works.
func TestHTTPAuth(t *testing.T) {
	ws := newWorkspace(t)
	const token = "e2e-token-0123456789abcdef"
	tokenFile := filepath.Join(t.TempDir(), "token")
	must(t, os.WriteFile(tokenFile, []byte(token+"\n"), 0o600))
	withToken := serveHTTP(t, ws, "127.0.0.1:0", nil, "--http-token-file", tokenFile)
	open := serveHTTP(t, ws, "127.0.0.1:0", nil)
	fromEnv := serveHTTP(t, ws, "127.0.0.1:0", []string{"MCPC_HTTP_TOKEN=" + token})
	bearer := "Bearer " + token
	for _, tc := range []struct {
		note    string
		port    string
		headers map[string]string
		want    int
	}{
		{"no token", withToken, nil, http.StatusUnauthorized},
		{"a wrong token", withToken, map[string]string{"Authorization": "Bearer wrong-token-0123456789abcdef"}, http.StatusUnauthorized},
		{"the token", withToken, map[string]string{"Authorization": bearer}, http.StatusOK},
		{"the token from MCPC_HTTP_TOKEN", fromEnv, map[string]string{"Authorization": bearer}, http.StatusOK},
		{"no token, token from MCPC_HTTP_TOKEN", fromEnv, nil, http.StatusUnauthorized},
		{"a rebinding Host with the token", withToken, map[string]string{"Authorization": bearer, "Host": "attacker.example:80"}, http.StatusForbidden},
		{"a foreign Origin with the token", withToken, map[string]string{"Authorization": bearer, "Origin": "https://attacker.example"}, http.StatusForbidden},
		{"loopback without a token configured", open, nil, http.StatusOK},
		{"a rebinding Host on loopback", open, map[string]string{"Host": "attacker.example"}, http.StatusForbidden},
		{"a foreign Origin on loopback", open, map[string]string{"Origin": "http://attacker.example:8080"}, http.StatusForbidden},
		{"the server's own Origin", open, map[string]string{"Origin": "http://127.0.0.1:" + open}, http.StatusOK},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if got := postMCP(t, tc.port, tc.headers); got != tc.want {
				t.Fatalf("status %d, want %d", got, tc.want)
			}
		})
	}
}

// TestHTTPBeyondLoopbackNeedsToken: every interface without a token refuses
// to start with a clear message; with one it serves only authenticated
// requests (sent to 127.0.0.1 only).
func TestHTTPBeyondLoopbackNeedsToken(t *testing.T) {
	ws := newWorkspace(t)
	cmd := exec.Command(binary, "serve", "--workspace", ws, "--no-warm", "--http", "0.0.0.0:0")
	cmd.Env = append(os.Environ(), "MCPC_HTTP_TOKEN=")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "not a loopback address and no bearer token") {
		t.Fatalf("serve --http 0.0.0.0:0 without a token: %v\n%s", err, out)
	}
	short := filepath.Join(t.TempDir(), "short")
	must(t, os.WriteFile(short, []byte("1234"), 0o600))
	if out, err := exec.Command(binary, "serve", "--workspace", ws, "--no-warm", "--http", "0.0.0.0:0", "--http-token-file", short).CombinedOutput(); err == nil || !strings.Contains(string(out), "at least") {
		t.Fatalf("a 4-byte token was accepted: %v\n%s", err, out)
	}
	const token = "e2e-token-0123456789abcdef"
	port := serveHTTP(t, ws, "0.0.0.0:0", []string{"MCPC_HTTP_TOKEN=" + token})
	if got := postMCP(t, port, nil); got != http.StatusUnauthorized {
		t.Errorf("no token: status %d", got)
	}
	if got := postMCP(t, port, map[string]string{"Authorization": "Bearer " + token}); got != http.StatusOK {
		t.Errorf("the token: status %d", got)
	}
}
