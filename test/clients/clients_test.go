// Package clients_test runs mcpc under MCP clients it did not write: the
// official TypeScript SDK client (ts-client.mjs, over stdio and streamable
// HTTP) and the MCP Inspector CLI (inspector-cli.mjs). The Go e2e tests use
// mcpc's own Go client; these catch what only another client notices (a
// schema it rejects, a result shape it reads differently, a protocol version
// it cannot negotiate, a blocked stderr pipe).
//
// Needs Node 20+ and the pinned npm packages:
//
//	npm ci --prefix test/clients
//	go test ./test/clients/
//
// Without them the tests skip and say what is missing.
package clients_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	// The binary under test is built from cmd/mcpc, which is internal/cli and
	// what it imports. Importing it here puts all of that source in this test
	// package's build hash, so `go test` never reuses a cached pass after the
	// server changed (the child `go build` alone is invisible to the cache).
	_ "github.com/mcpc/mcpc/internal/cli"
	"github.com/mcpc/mcpc/internal/sandbox"
)

const installHint = "install the pinned clients with `npm ci --prefix test/clients` (Node 20+; it reads test/clients/package-lock.json)"

// pinned are the exact client versions package.json and package-lock.json pin.
var pinned = map[string]string{
	"@modelcontextprotocol/sdk":       "1.32.2",
	"@modelcontextprotocol/inspector": "2.12.0",
}

// here is this package's directory in the source tree.
func here() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// requireClients skips unless node and the pinned packages are installed, and
// fails when node_modules holds other versions than the lock file pins.
func requireClients(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: install Node.js 20 or newer, then " + installHint)
	}
	dir := here()
	for name, want := range pinned {
		raw, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json"))
		if errors.Is(err, os.ErrNotExist) {
			t.Skipf("%s is not installed in %s: %s", name, filepath.Join(dir, "node_modules"), installHint)
		}
		if err != nil {
			t.Fatal(err)
		}
		var pkg struct{ Version string }
		if err := json.Unmarshal(raw, &pkg); err != nil {
			t.Fatalf("%s/package.json: %v", name, err)
		}
		if pkg.Version != want {
			t.Fatalf("node_modules holds %s %s, package-lock.json pins %s: reinstall with `npm ci --prefix test/clients`", name, pkg.Version, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", "inspector")); err != nil {
		t.Skipf("the inspector launcher node_modules/.bin/inspector is missing: %s", installHint)
	}
	return node
}

// buildMCPC builds the server under test into a temporary directory.
func buildMCPC(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpc")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/mcpc/mcpc/cmd/mcpc").CombinedOutput()
	if err != nil {
		t.Fatalf("go build github.com/mcpc/mcpc/cmd/mcpc: %v\n%s", err, out)
	}
	return bin
}

// newWorkspace copies examples/angular-shop (dot folders included) into a
// fresh directory: a lifecycle patches its template, so no run shares one.
func newWorkspace(t *testing.T) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "angular-shop")
	if err := os.CopyFS(ws, os.DirFS(filepath.Join(here(), "..", "..", "examples", "angular-shop"))); err != nil {
		t.Fatalf("copying the example workspace: %v", err)
	}
	return ws
}

// runScript runs one client script against bin and a fresh workspace; on
// failure the test shows the script's whole output (it ends with the
// mismatch and the server's stderr).
func runScript(t *testing.T, node, bin, script string, args ...string) {
	t.Helper()
	ws := newWorkspace(t)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	argv := append([]string{filepath.Join(here(), script), "--binary", bin, "--workspace", ws}, args...)
	cmd := exec.CommandContext(ctx, node, argv...)
	cmd.Dir = here()
	if err := sandbox.MachineCannotSandbox(); err != nil {
		// The scripts validate and commit: without a sandbox their
		// server runs those commands unsandboxed (README: Sandbox).
		t.Log("no sandbox on this machine, the server runs commands unsandboxed:", err)
		cmd.Env = append(os.Environ(), "MCPC_SANDBOX_ALLOW_UNSANDBOXED=true")
	}
	// A server child still holding the pipes must not hang the test.
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			err = errors.Join(err, errors.New("timed out after 45s"))
		}
		t.Fatalf("node %s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	t.Logf("node %s (%s):\n%s", script, time.Since(start).Round(time.Millisecond), out)
}

func TestRealMCPClients(t *testing.T) {
	node := requireClients(t)
	bin := buildMCPC(t)
	t.Run("ts-sdk/stdio", func(t *testing.T) {
		t.Parallel()
		runScript(t, node, bin, "ts-client.mjs", "--transport", "stdio")
	})
	t.Run("ts-sdk/streamable-http", func(t *testing.T) {
		t.Parallel()
		runScript(t, node, bin, "ts-client.mjs", "--transport", "http")
	})
	t.Run("inspector-cli", func(t *testing.T) {
		t.Parallel()
		runScript(t, node, bin, "inspector-cli.mjs")
	})
}
