package mcp

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configures HTTPHandler.
type HTTPOptions struct {
	// Addr is the address the listener is bound to (host:port as given to
	// net.Listen or as the listener reports it); its host is an allowed Host
	// unless it is a wildcard (0.0.0.0, ::).
	Addr string
	// Token is the bearer token every request must carry; "" means none,
	// which ListenCheck allows only on a loopback address.
	Token string
	// AllowedHosts are Host header names accepted besides the loopback
	// names and the bound host (e.g. the machine's name on the network).
	AllowedHosts []string
	// AllowedOrigins are Origin header values (scheme://host[:port])
	// accepted besides the server's own origin.
	AllowedOrigins []string
	// Idle closes a session that receives no request for this long (0:
	// never).
	Idle time.Duration
}

// MinTokenBytes is the shortest bearer token accepted: a guessable token is
// no credential.
const MinTokenBytes = 16

// ReadToken reads the bearer token from file (trimmed of surrounding
// space), or from the environment variable MCPC_HTTP_TOKEN when file is "",
// and removes that variable from the process's environment. It returns ""
// when neither is set.
func ReadToken(file string) (string, error) {
	tok := os.Getenv("MCPC_HTTP_TOKEN")
	src := "MCPC_HTTP_TOKEN"
	if file != "" {
		raw, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--http-token-file: %w", err)
		}
		tok, src = string(raw), file
	}
	// No command mcpc runs (validation, hooks) inherits the token.
	set := file != "" || os.Getenv("MCPC_HTTP_TOKEN") != ""
	if err := os.Unsetenv("MCPC_HTTP_TOKEN"); err != nil {
		return "", err
	}
	tok = strings.TrimSpace(tok)
	if set && len(tok) < MinTokenBytes {
		return "", fmt.Errorf("the HTTP bearer token from %s is %d bytes; use at least %d random bytes (e.g. `openssl rand -hex 32`)", src, len(tok), MinTokenBytes)
	}
	return tok, nil
}

// ListenCheck refuses to serve a non-loopback address without a token:
// anyone who can reach the port would drive the tool.
func ListenCheck(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--http %s: %w", addr, err)
	}
	if token == "" && !isLoopbackHost(host) {
		return errors.New("--http " + addr + " is not a loopback address and no bearer token is configured: " +
			"set --http-token-file FILE or MCPC_HTTP_TOKEN, or bind 127.0.0.1")
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// HTTPHandler serves streamable HTTP; mount it at /mcp. Before the SDK sees
// a request, guard checks its Host (DNS rebinding: a page of another site
// whose name resolves to this address sends that site's name), its Origin
// when present (a browser page of another origin), and the bearer token
// when one is configured; a request failing any of them is answered 403 or
// 401 and reaches nothing. A session that receives no request for
// opts.Idle is closed: a client that never ends its sessions would
// otherwise grow the server without bound. Closing one loses nothing: works
// live in the store, and a client answered 404 starts a new session and
// goes on with its workId.
func HTTPHandler(s *sdk.Server, opts HTTPOptions) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{
		SessionTimeout: opts.Idle,
		// guard checks Host on every address, with the configured names;
		// the SDK's own check (loopback only) would refuse those.
		DisableLocalhostProtection: true,
	})
	return newGuard(opts, h)
}

type guard struct {
	next    http.Handler
	hosts   map[string]bool
	origins map[string]bool
	token   [sha256.Size]byte
	hasTok  bool
}

func newGuard(opts HTTPOptions, next http.Handler) *guard {
	g := &guard{next: next, hosts: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}, origins: map[string]bool{}}
	if host, _, err := net.SplitHostPort(opts.Addr); err == nil {
		if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
			g.hosts[strings.ToLower(host)] = true
		}
	}
	for _, h := range opts.AllowedHosts {
		g.hosts[strings.ToLower(strings.Trim(h, "[]"))] = true
	}
	for _, o := range opts.AllowedOrigins {
		g.origins[strings.ToLower(strings.TrimSuffix(o, "/"))] = true
	}
	if opts.Token != "" {
		// Compared as hashes: equal lengths, so the comparison's time says
		// nothing about the token's length either.
		g.token, g.hasTok = sha256.Sum256([]byte(opts.Token)), true
	}
	return g
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := hostName(r.Host)
	if !g.hosts[host] {
		http.Error(w, "mcpc: Host "+r.Host+" is not allowed (DNS rebinding protection; see --http-allowed-host)", http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !g.originAllowed(o, r.Host) {
		http.Error(w, "mcpc: Origin "+o+" is not allowed (see --http-allowed-origin)", http.StatusForbidden)
		return
	}
	if g.hasTok && !g.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcpc"`)
		http.Error(w, "mcpc: a valid bearer token is required", http.StatusUnauthorized)
		return
	}
	g.next.ServeHTTP(w, r)
}

func (g *guard) authorized(r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(auth) <= len(prefix) || !strings.EqualFold(auth[:len(prefix)], prefix) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(auth[len(prefix):])))
	return subtle.ConstantTimeCompare(got[:], g.token[:]) == 1
}

// originAllowed accepts the server's own origin (the page it would serve,
// on an allowed Host) and the configured ones; "null" and anything else
// are refused.
func (g *guard) originAllowed(origin, reqHost string) bool {
	o := strings.ToLower(strings.TrimSuffix(origin, "/"))
	if g.origins[o] {
		return true
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, reqHost) && g.hosts[hostName(u.Host)]
}

// hostName is the lower-case host of a Host header, without port or IPv6
// brackets.
func hostName(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}
