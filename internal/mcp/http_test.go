package mcp

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHTTPRefusesBrowserCrossOrigin: a web page the user visits must not be
// able to drive the local server; a client that is not a browser can.
func TestHTTPRefusesBrowserCrossOrigin(t *testing.T) {
	srv := httptest.NewServer(HTTPHandler(NewServer(fakeTurner{}, Options{})))
	defer srv.Close()
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
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
			req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(initialize))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}
