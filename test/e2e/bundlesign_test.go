package e2e

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/mcp"
)

// allowAll is the bundle an attacker would serve: every turn allowed, so
// the embedded policy's denial of an unknown verb becomes an allow.
const allowAll = `package mcpc.main

decision := {"allow": true, "state": input.state, "nextState": input.state, "capabilities": [], "denials": []}
`

// markerPolicy denies every turn with its own code, to tell it apart from
// both the embedded policy and allowAll.
const markerPolicy = `package mcpc.main

decision := {"allow": false, "state": input.state, "nextState": input.state, "capabilities": [], "denials": [{
	"code": "MARKER_POLICY", "rule": "marker", "message": "the marker bundle decided", "path": "",
	"remediation": "none", "severity": "error",
}]}
`

// rsaKey writes a fresh RSA key pair under dir and returns the private and
// public PEM files.
func rsaKey(t *testing.T, dir, name string) (private, public string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	must(t, err)
	pub, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	must(t, err)
	private, public = filepath.Join(dir, name+".key"), filepath.Join(dir, name+".pub")
	must(t, os.WriteFile(private, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}), 0o600))
	must(t, os.WriteFile(public, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o644))
	return private, public
}

// buildBundle writes a one-module policy and builds it with mcpc policy
// build, signed with signingKey unless it is "".
func buildBundle(t *testing.T, ws, policy, signingKey string) []byte {
	t.Helper()
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "rego", "mcpc", "main"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "rego", "mcpc", "main", "main.rego"), []byte(policy), 0o644))
	out := filepath.Join(t.TempDir(), "bundle.tar.gz")
	args := []string{"policy", "build", "--dir", dir, "--output", out}
	if signingKey != "" {
		args = append(args, "--signing-key", signingKey)
	}
	if text, err := runCLI(ws, args...); err != nil {
		t.Fatalf("policy build: %v\n%s", err, text)
	}
	b, err := os.ReadFile(out)
	must(t, err)
	return b
}

// swapFile returns the bundle tarball with one file's content replaced and
// everything else (its .signatures.json included) kept: a tampered bundle.
func swapFile(t *testing.T, bundle []byte, name string, content []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(bundle))
	must(t, err)
	tr := tar.NewReader(zr)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	found := false
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		must(t, err)
		body, err := io.ReadAll(tr)
		must(t, err)
		if strings.TrimPrefix(h.Name, "/") == name {
			body, found = content, true
		}
		h.Size = int64(len(body))
		must(t, tw.WriteHeader(h))
		_, err = tw.Write(body)
		must(t, err)
	}
	if !found {
		t.Fatalf("the bundle has no %s", name)
	}
	must(t, tw.Close())
	must(t, zw.Close())
	return buf.Bytes()
}

// bundleServer serves whatever bundle is current, with an ETag of its
// content, over TLS (or plain http) on loopback.
type bundleServer struct {
	srv     *httptest.Server
	current atomic.Pointer[[]byte]
}

func newBundleServer(t *testing.T, tls bool, first []byte) *bundleServer {
	t.Helper()
	b := &bundleServer{}
	b.current.Store(&first)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := *b.current.Load()
		sum := sha256.Sum256(body)
		etag := `"` + hex.EncodeToString(sum[:8]) + `"`
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(body)
	})
	if tls {
		b.srv = httptest.NewTLSServer(h)
		// The mcpc process trusts the test server's certificate only.
		ca := filepath.Join(t.TempDir(), "ca.pem")
		must(t, os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: b.srv.Certificate().Raw}), 0o644))
		t.Setenv("SSL_CERT_FILE", ca)
	} else {
		b.srv = httptest.NewServer(h)
	}
	t.Cleanup(b.srv.Close)
	return b
}

func (b *bundleServer) serve(bundle []byte) { b.current.Store(&bundle) }

// syncBuffer collects a process's stderr.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// startLogged is startServer keeping the server's log.
func startLogged(t *testing.T, ws string, extra ...string) (*agent, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(binary, append([]string{"serve", "--workspace", ws, "--no-warm"}, extra...)...)
	log := &syncBuffer{}
	cmd.Stderr = log
	c, err := mcp.Dial(ctx, cmd)
	if err != nil {
		t.Fatalf("starting mcpc serve: %v\n%s", err, log)
	}
	t.Cleanup(func() { c.Close() })
	return &agent{t: t, c: c}, log
}

// policyInForce names the policy that decided an unknown verb: the
// embedded one denies it, allowAll allows it, markerPolicy marks it.
func policyInForce(a *agent) string {
	r := a.turn("open_sesame", nil)
	switch {
	case len(r.Denials) == 0:
		return "allow-all"
	case r.Denials[0].Code == "UNKNOWN_VERB":
		return "embedded"
	default:
		return r.Denials[0].Code
	}
}

// TestSignedBundles: a bundle from a URL decides only when its signature
// verifies against the configured key and it came over https (or plain
// http explicitly allowed for development). Every rejection keeps the
// embedded policy and says why in the log.
func TestSignedBundles(t *testing.T) {
	ws := newWorkspace(t)
	keys := t.TempDir()
	priv, pub := rsaKey(t, keys, "mcpc")
	otherPriv, _ := rsaKey(t, keys, "other")
	signed := buildBundle(t, ws, allowAll, priv)
	unsigned := buildBundle(t, ws, allowAll, "")
	otherKey := buildBundle(t, ws, allowAll, otherPriv)
	// The marker bundle's signature over the allow-all module.
	tampered := swapFile(t, buildBundle(t, ws, markerPolicy, priv), "rego/mcpc/main/main.rego", []byte(allowAll))

	cfg := filepath.Join(ws, ".ai", "config", "env.local.json")
	for _, tc := range []struct {
		note    string
		bundle  []byte
		tls     bool
		flags   []string
		want    string
		logWant string
		config  string
	}{
		{"signed with the key, over https", signed, true, []string{"--bundle-key", pub}, "allow-all", "", ""},
		{"unsigned", unsigned, true, []string{"--bundle-key", pub}, "embedded", "signature", ""},
		{"tampered", tampered, true, []string{"--bundle-key", pub}, "embedded", "digest", ""},
		{"signed with another key", otherKey, true, []string{"--bundle-key", pub}, "embedded", "signature", ""},
		{"no key configured", signed, true, nil, "embedded", "--bundle-key", ""},
		{"plain http", signed, false, []string{"--bundle-key", pub}, "embedded", "plain http is refused", ""},
		{"plain http allowed for development", signed, false, []string{"--bundle-key", pub, "--allow-insecure-bundle-http"}, "allow-all", "", ""},
		{"key and http from config", signed, false, nil, "allow-all", "", `{"bundles": {"allowInsecureHttp": true, "verification": {"keyFile": "` + pub + `", "algorithm": "RS256"}}}`},
		{"another key from config", otherKey, true, nil, "embedded", "signature", `{"bundles": {"verification": {"keyFile": "` + pub + `"}}}`},
	} {
		t.Run(tc.note, func(t *testing.T) {
			if tc.config != "" {
				must(t, os.WriteFile(cfg, []byte(tc.config), 0o644))
				t.Cleanup(func() { os.Remove(cfg) })
			}
			srv := newBundleServer(t, tc.tls, tc.bundle)
			a, log := startLogged(t, ws, append([]string{"--bundle", srv.srv.URL + "/mcpc.tar.gz"}, tc.flags...)...)
			if got := policyInForce(a); got != tc.want {
				t.Fatalf("policy in force %s, want %s\n%s", got, tc.want, log)
			}
			if tc.logWant != "" && (!strings.Contains(log.String(), "rejected") || !strings.Contains(log.String(), tc.logWant)) {
				t.Errorf("the log does not say why the bundle was rejected (%q):\n%s", tc.logWant, log)
			}
		})
	}
}

// TestSignedBundlePollKeepsLastGood: a new version that fails verification
// never replaces the bundle in force; a new one that verifies does.
func TestSignedBundlePollKeepsLastGood(t *testing.T) {
	ws := newWorkspace(t)
	keys := t.TempDir()
	priv, pub := rsaKey(t, keys, "mcpc")
	otherPriv, _ := rsaKey(t, keys, "other")
	marker := buildBundle(t, ws, markerPolicy, priv)
	srv := newBundleServer(t, true, buildBundle(t, ws, allowAll, priv))
	t.Setenv("MCPC_BUNDLE_POLL_SECONDS", "1")
	tmp := t.TempDir() // where the server keeps its downloads
	t.Setenv("TMPDIR", tmp)
	a, log := startLogged(t, ws, "--bundle", srv.srv.URL+"/mcpc.tar.gz", "--bundle-key", pub)
	if got := policyInForce(a); got != "allow-all" {
		t.Fatalf("policy in force %s, want the signed allow-all bundle\n%s", got, log)
	}
	for _, bad := range []struct {
		note   string
		bundle []byte
	}{
		{"tampered", swapFile(t, marker, "rego/mcpc/main/main.rego", []byte(allowAll+"\n# changed\n"))},
		{"unsigned", buildBundle(t, ws, markerPolicy, "")},
		{"another key", buildBundle(t, ws, markerPolicy, otherPriv)},
	} {
		before := strings.Count(log.String(), "rejected")
		srv.serve(bad.bundle)
		waitFor(t, func() bool { return strings.Count(log.String(), "rejected") > before }, "the "+bad.note+" bundle to be rejected\n"+log.String())
		if got := policyInForce(a); got != "allow-all" {
			t.Fatalf("after a %s update the policy in force is %s, want the last good one", bad.note, got)
		}
	}
	srv.serve(marker)
	waitFor(t, func() bool { return policyInForce(a) == "MARKER_POLICY" }, "the signed update to load")

	// A server that ends removes the copy it downloaded: each process
	// had left one in the temporary folder.
	if err := a.c.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "mcpc-bundle-*")); len(left) > 0 {
		t.Errorf("the server left its downloaded bundles: %v", left)
	}
}

func waitFor(t *testing.T, ok func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
