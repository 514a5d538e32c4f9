package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxedCode drives run_sandboxed_code over stdio: a shaped result
// is returned and kept with the node's artifacts; an endless loop is
// interrupted at its deadline; a wrong shape, a placeholder, and any reach
// for require, the filesystem, the process or timers are refused.
func TestSandboxedCode(t *testing.T) {
	ws := newWorkspace(t)
	a := acceptedWork(t, ws)
	// turn is the args of a run of code with the same inputs.
	turn := func(code string, extra map[string]any) map[string]any {
		args := map[string]any{"planNodeId": "change-alert", "code": code,
			"inputs": map[string]any{"files": []string{"a.ts", "b.html", "c.ts"}}}
		for k, v := range extra {
			args[k] = v
		}
		return args
	}

	ok := a.turn("run_sandboxed_code", turn(`(async () => {
		const ts = inputs.files.filter(f => f.endsWith(".ts"));
		return {count: ts.length, files: ts};
	})()`, map[string]any{"expectedShape": map[string]any{"count": "number", "files": "array"}}))
	mustAllow(t, ok)
	value, _ := ok.Result["value"].(map[string]any)
	if ok.Result["outcome"] != "ok" || value["count"] != float64(2) {
		t.Fatalf("result %v", ok.Result)
	}
	if _, err := os.Stat(filepath.Join(ws, ".ai", "tmp", "work", a.work, "artifacts", "change-alert", "sandbox.json")); err != nil {
		t.Errorf("the run was not kept with the node's artifacts: %v", err)
	}

	mustDeny(t, a.turn("run_sandboxed_code", turn(`(async () => { for (;;) {} })()`, map[string]any{"timeoutMs": 200})), "SANDBOXED_CODE_FAILED")
	mustDeny(t, a.turn("run_sandboxed_code", turn(`(async () => ({count: "2"}))()`,
		map[string]any{"expectedShape": map[string]any{"count": "number"}})), "SANDBOXED_CODE_RESULT_INVALID")
	mustDeny(t, a.turn("run_sandboxed_code", turn(`(async () => ({summary: "TODO"}))()`, nil)), "SANDBOXED_CODE_RESULT_INVALID")
	mustDeny(t, a.turn("run_sandboxed_code", turn(`(async () => {})()`, nil)), "SANDBOXED_CODE_RESULT_INVALID")
	for _, reach := range []string{
		`require("fs").readFileSync("/etc/passwd", "utf8")`,
		`require("child_process").execSync("id")`,
		`process.env.HOME`,
		`new Promise(r => setTimeout(r, 1))`,
		`fetch("http://127.0.0.1:1/")`,
		`Deno.readTextFileSync("/etc/passwd")`,
	} {
		r := a.turn("run_sandboxed_code", turn(`(async () => `+reach+`)()`, nil))
		mustDeny(t, r, "SANDBOXED_CODE_FAILED")
	}
	// A script that would build gigabytes in one native call is refused
	// before the call allocates; one that grows its heap step by step ends
	// at the memory cap. The server answers and goes on after both.
	bomb := a.turn("run_sandboxed_code", turn(`(async () => { const s = "x".repeat(1 << 20); return Array(1000).fill(s).join("").length; })()`,
		map[string]any{"memoryMb": 32, "timeoutMs": 10000}))
	mustDeny(t, bomb, "SANDBOXED_CODE_FAILED")
	if !strings.Contains(bomb.DenyReasons[0], "RangeError: Array.prototype.join") {
		t.Errorf("the join bomb: %v", bomb.DenyReasons)
	}
	growth := a.turn("run_sandboxed_code", turn(`(async () => { const a = []; for (;;) a.push(new Array(1000).fill({x: 1})); })()`,
		map[string]any{"memoryMb": 16, "timeoutMs": 10000}))
	mustDeny(t, growth, "SANDBOXED_CODE_FAILED")
	if !strings.Contains(growth.DenyReasons[0], "memory_exceeded") {
		t.Errorf("the growing heap: %v", growth.DenyReasons)
	}
	mustAllow(t, a.turn("run_sandboxed_code", turn(`(async () => ({n: 1}))()`, nil)))
	// Out-of-range limits are bad input, refused before anything runs.
	mustDeny(t, a.turn("run_sandboxed_code", turn(`1`, map[string]any{"timeoutMs": 600000})), "INVALID_ARGS")
}
