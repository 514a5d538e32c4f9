package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/mcp"
)

var (
	failpointOnce sync.Once
	failpointBin  string
	failpointErr  error
)

// failpointBinary is mcpc built with -tags mcpc_failpoints, which has the
// MCPC_FAILPOINT hook the crash tests stop a process with. It is built on
// first use, beside the production binary every other test drives.
func failpointBinary(t *testing.T) string {
	t.Helper()
	failpointOnce.Do(func() {
		failpointBin = filepath.Join(filepath.Dir(binary), "mcpc-failpoints")
		out, err := exec.Command("go", "build", "-tags", "mcpc_failpoints", "-o", failpointBin, "github.com/mcpc/mcpc/cmd/mcpc").CombinedOutput()
		if err != nil {
			failpointErr = fmt.Errorf("building mcpc with failpoints: %v\n%s", err, out)
		}
	})
	if failpointErr != nil {
		t.Fatal(failpointErr)
	}
	return failpointBin
}

// TestProductionBuildHasNoFailpoint: the binary `go build ./cmd/mcpc`
// makes has no failpoint hook (no environment variable can stop it
// mid-patch), while the tagged build the crash tests use has it: the check
// sees the hook where it is.
func TestProductionBuildHasNoFailpoint(t *testing.T) {
	hook := []byte("MCPC_FAILPOINT")
	symbol := []byte("controller.failpointName")
	for _, tc := range []struct {
		note    string
		path    string
		hasHook bool
	}{
		{note: "production build", path: binary, hasHook: false},
		{note: "mcpc_failpoints build", path: failpointBinary(t), hasHook: true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			data, err := os.ReadFile(tc.path)
			must(t, err)
			if got := bytes.Contains(data, hook); got != tc.hasHook {
				t.Errorf("the binary holds %q: %v, want %v", hook, got, tc.hasHook)
			}
			syms, err := exec.Command("go", "tool", "nm", tc.path).Output()
			must(t, err)
			if got := bytes.Contains(syms, symbol); got != tc.hasHook {
				t.Errorf("the binary has the symbol %s: %v, want %v", symbol, got, tc.hasHook)
			}
		})
	}
}

// startFailpointServer starts the failpoint build's serve on ws with
// MCPC_FAILPOINT=point, the binary built before the start-up clock runs
// (on a loaded machine the build alone can take most of the allowance).
func startFailpointServer(t *testing.T, ws, point string) *agent {
	t.Helper()
	bin := failpointBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "serve", "--workspace", ws, "--no-warm")
	cmd.Env = append(os.Environ(), "MCPC_FAILPOINT="+point)
	c, err := mcp.Dial(ctx, cmd)
	must(t, err)
	t.Cleanup(func() { c.Close() })
	return &agent{t: t, c: c}
}
