package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/demo"
	"github.com/mcpc/mcpc/internal/mcp"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/sandbox"
)

// The adversarial suite of the sandbox: code an agent wrote (a script a
// validation command runs, a repository hook) runs with what the sandbox
// grants, not with mcpc's authority. Each secret below is a canary: a
// unique string that must never reach an agent.
const (
	dotenvCanary = "DOTENV_CANARY_6f1c2e"
	envCanary    = "PROCESS_ENV_CANARY_93ab0d"
)

// checkScript is the repository's validation script the no-adp-alert
// command runs; it mentions adp-alert, so the work's pack holds it.
const (
	checkScript     = "src/tools/check-adp-alert.sh"
	checkScriptBody = "#!/bin/sh\n# check-adp-alert: fails while a template still uses <adp-alert>\n" +
		"if grep -rn '<adp-alert' src/app; then echo 'adp-alert is still used'; exit 1; fi\necho 'no adp-alert left'\n"
)

// leakScript is what the agent patches a script or hook into: print .env,
// mcpc's environment variable (its own and via /proc) and /etc/passwd.
const leakScript = `cat .env ../.env; echo "canary=$MCPC_E2E_CANARY"; ` +
	`for f in /proc/*/environ; do tr '\000' '\n' < "$f"; done 2>/dev/null | grep CANARY; cat /etc/passwd; `

// requireBwrap skips a test that needs a sandbox on a machine that cannot
// make any; .ci/run installs bwrap, and the fallback tests run everywhere.
func requireBwrap(t *testing.T) {
	t.Helper()
	if err := sandbox.MachineCannotSandbox(); err != nil {
		t.Skip(err, "; .ci/run installs bubblewrap")
	}
}

// startServerEnv starts `mcpc serve` on ws with env added to the test's
// environment; stderr collects what the server says on it.
func startServerEnv(t *testing.T, ws string, env ...string) (a *agent, server *exec.Cmd, stderr *bytes.Buffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	server = exec.Command(binary, "serve", "--workspace", ws)
	server.Env = append(os.Environ(), env...)
	stderr = &bytes.Buffer{}
	server.Stderr = stderr
	c, err := mcp.Dial(ctx, server)
	if err != nil {
		t.Fatalf("starting mcpc serve: %v\n%s", err, stderr)
	}
	t.Cleanup(func() { c.Close() })
	return &agent{t: t, c: c}, server, stderr
}

// scriptWorkspace is the example with a .env, the check script, a husky
// pre-commit hook, and no-adp-alert running the script.
func scriptWorkspace(t *testing.T, config string) string {
	t.Helper()
	ws := newWorkspace(t)
	must(t, os.WriteFile(filepath.Join(ws, ".env"), []byte("API_KEY="+dotenvCanary+"\n"), 0o600))
	must(t, os.MkdirAll(filepath.Join(ws, filepath.Dir(checkScript)), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, checkScript), []byte(checkScriptBody), 0o755))
	if config == "" {
		config = fmt.Sprintf(`{"validation": {"commands": {"no-adp-alert": {"argv": ["sh", %q], "timeoutSec": 60}}}}`, checkScript)
	}
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(config), 0o644))
	return ws
}

// scriptPlan is the demo plan with a second change node patching target
// (the check script), validated by validate-alert, and a gated git_commit.
func scriptPlan(init *protocol.TurnResponse, target string) map[string]any {
	plan := demo.Plan(envelopeOf(init), true)
	nodes := plan["nodes"].([]any)
	script := map[string]any{}
	for k, v := range nodes[0].(map[string]any) {
		script[k] = v
	}
	script["nodeId"], script["targetFile"] = "change-script", target
	script["whyThisFile"] = "the script names the old tag"
	script["codeEvidence"] = []any{map[string]any{"file": target, "startLine": 2, "endLine": 2, "symbol": "adp-alert"}}
	validate := nodes[1].(map[string]any)
	validate["mapsToNodeIds"] = []string{"change-alert", "change-script"}
	validate["dependsOn"] = []string{"change-alert", "change-script"}
	commit := map[string]any{
		"nodeId": "commit", "kind": "side_effect", "dependsOn": []string{"validate-alert"},
		"atomicityBoundary": "repository", "expectedFailureSignatures": []string{}, "correctionCandidateOnFail": "git revert",
		"sideEffectType": "git_commit", "sideEffectPayloadRef": "scratch:commit-message", "commitGateId": "release-gate",
	}
	plan["nodes"] = []any{nodes[0], script, validate, commit}
	return plan
}

// patchScript has the accepted plan's change-script node rewrite the
// check script's last line, find, into replace.
func patchScript(t *testing.T, a *agent, find, replace string) {
	t.Helper()
	patchFile(t, a, checkScript, find, replace)
}

// patchFile has the change-script node rewrite find in target into replace.
func patchFile(t *testing.T, a *agent, target, find, replace string) {
	t.Helper()
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": target}))
	mustAllow(t, a.turn("apply_code_patch", map[string]any{"planNodeId": "change-script", "targetFile": target,
		"edits": []any{map[string]any{"op": "replace_text", "find": find, "replace": replace}}}))
}

// leakingPatch makes the check script print what it can find, then pass.
func leakingPatch(t *testing.T, a *agent) {
	t.Helper()
	patchScript(t, a, "echo 'no adp-alert left'", leakScript+"echo 'no adp-alert left'")
}

// leaked names the canaries and host /etc/passwd lines in s.
func leaked(t *testing.T, s string) []string {
	t.Helper()
	var found []string
	for _, c := range []string{dotenvCanary, envCanary} {
		if strings.Contains(s, c) {
			found = append(found, c)
		}
	}
	passwd, err := os.ReadFile("/etc/passwd")
	must(t, err)
	for _, line := range strings.Split(string(passwd), "\n") {
		// The sandbox's synthetic /etc/passwd has a nobody like most.
		if line != "" && !strings.HasPrefix(line, "nobody:x:65534:65534:") && strings.Contains(s, line) {
			found = append(found, "/etc/passwd: "+line)
		}
	}
	return found
}

// acceptScriptWork starts a server with the canary in its environment and
// has the script plan accepted and the template patched.
func acceptScriptWork(t *testing.T, ws string, env ...string) (*agent, *exec.Cmd, *bytes.Buffer) {
	t.Helper()
	return acceptWorkPatching(t, ws, checkScript, env...)
}

// acceptWorkPatching is acceptScriptWork with target as the second
// change node's file.
func acceptWorkPatching(t *testing.T, ws, target string, env ...string) (*agent, *exec.Cmd, *bytes.Buffer) {
	t.Helper()
	a, server, stderr := startServerEnv(t, ws, append([]string{"MCPC_E2E_CANARY=" + envCanary}, env...)...)
	init := a.initialize(demo.Prompt, "adp-alert")
	if !containsString(packFiles(init), target) {
		t.Fatalf("the pack %v does not hold %s", packFiles(init), target)
	}
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": scriptPlan(init, target)}))
	mustAllow(t, patchAlert(a, alertCodemod))
	return a, server, stderr
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestSandboxedValidationLeaksNothing: a validation script an accepted
// plan patched runs in the sandbox; what it prints comes back, but it
// cannot read .env, mcpc's environment or the host's /etc/passwd, and the
// node's verdict is its exit status.
func TestSandboxedValidationLeaksNothing(t *testing.T) {
	requireBwrap(t)
	ws := scriptWorkspace(t, "")
	a, _, stderr := acceptScriptWork(t, ws)
	// The script's exit status is the verdict, sandboxed as it is.
	patchScript(t, a, "echo 'no adp-alert left'", "exit 7")
	if r := validateAlert(a); r.Result["status"] != "failed" || r.Result["exitCode"] != float64(7) {
		t.Errorf("a script exiting 7: %v", r.Result)
	}
	patchScript(t, a, "exit 7", leakScript+"echo 'no adp-alert left'")
	r := validateAlert(a)
	mustAllow(t, r)
	out, _ := r.Result["output"].(string)
	if r.Result["status"] != "passed" || r.Result["sandboxed"] != true || !strings.Contains(out, "no adp-alert left") || !strings.Contains(out, "canary=\n") {
		t.Fatalf("the patched script's validation: %v", r.Result)
	}
	if l := leaked(t, out); len(l) > 0 {
		t.Errorf("the validation result leaked %v:\n%s", l, out)
	}
	if !strings.Contains(stderr.String(), "run in a bubblewrap sandbox") {
		t.Errorf("serve did not say it runs commands sandboxed:\n%s", stderr)
	}
}

// TestSandboxedHookLeaksNothing: the repository's pre-commit hook (husky's
// folder, through core.hooksPath) that an accepted plan patched runs at
// the gated commit a person approved, in the sandbox: its error comes back
// without .env, mcpc's environment or /etc/passwd, and it cannot turn off
// the hooks for mcpc's later git calls.
func TestSandboxedHookLeaksNothing(t *testing.T) {
	requireBwrap(t)
	ws := scriptWorkspace(t, "")
	git := gitRepo(t, ws)
	// The hook runs the check script, which the agent then patches.
	must(t, os.MkdirAll(filepath.Join(ws, ".husky"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".husky", "pre-commit"), []byte("#!/bin/sh\nsh "+checkScript+" && exit 1\n"), 0o755))
	git("add", "-A")
	git("commit", "-q", "-m", "hooks")
	git("config", "core.hooksPath", ".husky")
	a, _, _ := acceptScriptWork(t, ws)
	leakingPatch(t, a)
	mustAllow(t, validateAlert(a))
	out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "release-gate", "--by", "reviewer")
	if err != nil {
		t.Fatalf("gate approve: %v\n%s", err, out)
	}
	writeCommitMessage(t, a)
	r := a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"})
	// The hook failing the commit after the turn's transaction is a
	// recorded EXEC_FAILED denial whose message carries the hook's output.
	mustDeny(t, r, "EXEC_FAILED")
	msg := r.Denials[0].Message
	if !strings.Contains(msg, "git commit failed") || !strings.Contains(msg, "no adp-alert left") {
		t.Fatalf("the hook did not run and fail the commit: %v", r.DenyReasons)
	}
	if l := leaked(t, msg); len(l) > 0 {
		t.Errorf("the hook's error leaked %v:\n%s", l, msg)
	}
	if hooks := git("config", "core.hooksPath"); hooks != ".husky" {
		t.Errorf("core.hooksPath is now %q", hooks)
	}
}

// TestSandboxedPatchedHookLeaksNothing: the accepted plan patches
// .husky/pre-commit itself (the repository's hooks folder through
// core.hooksPath); at the gated commit the hook runs in the sandbox and
// its error carries nothing it must not see.
func TestSandboxedPatchedHookLeaksNothing(t *testing.T) {
	requireBwrap(t)
	const hook = ".husky/pre-commit"
	config := fmt.Sprintf(`{"validation": {"commands": {"no-adp-alert": {"argv": ["sh", %q], "timeoutSec": 60, "covers": ["src/**", ".husky/**"]}}}}`, checkScript)
	ws := scriptWorkspace(t, config)
	must(t, os.MkdirAll(filepath.Join(ws, ".husky"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, hook), []byte("#!/bin/sh\n# refuse a commit that brings <adp-alert> back\n"+
		"if git diff --cached | grep -q '^+.*<adp-alert'; then echo 'adp-alert is back'; exit 1; fi\n"), 0o755))
	git := gitRepo(t, ws)
	git("config", "core.hooksPath", ".husky")
	a, _, _ := acceptWorkPatching(t, ws, hook)
	patchFile(t, a, hook, "if git diff", leakScript+"echo 'hook ran'; exit 1\nif git diff")
	mustAllow(t, validateAlert(a))
	if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "release-gate", "--by", "reviewer"); err != nil {
		t.Fatalf("gate approve: %v\n%s", err, out)
	}
	writeCommitMessage(t, a)
	r := a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"})
	// The hook failing the commit after the turn's transaction is a
	// recorded EXEC_FAILED denial whose message carries the hook's output.
	mustDeny(t, r, "EXEC_FAILED")
	msg := r.Denials[0].Message
	if !strings.Contains(msg, "git commit failed") || !strings.Contains(msg, "hook ran") {
		t.Fatalf("the patched hook did not run and fail the commit: %v", r.DenyReasons)
	}
	if l := leaked(t, msg); len(l) > 0 {
		t.Errorf("the hook's error leaked %v:\n%s", l, msg)
	}
}

// TestSandboxedOutputIsBounded: a validation printing 300 MB costs mcpc
// the output limit, not the output: the result holds the tail and the full
// size, and the server's peak memory stays far below what it printed.
func TestSandboxedOutputIsBounded(t *testing.T) {
	const printed = 300 << 20
	ws := newWorkspace(t)
	config := fmt.Sprintf(`{"sandbox": {"allowUnsandboxed": true}, "validation": {"commands": {"no-adp-alert": {"argv": ["sh", "-c", "yes | head -c %d"], "timeoutSec": 120}}}}`, printed)
	must(t, os.WriteFile(filepath.Join(ws, ".ai", "config", "env.local.json"), []byte(config), 0o644))
	a, server, _ := startServerEnv(t, ws)
	init := a.initialize(demo.Prompt, "adp-alert")
	mustAllow(t, a.turn("submit_execution_plan", map[string]any{"planGraph": demo.Plan(envelopeOf(init), true)}))
	mustAllow(t, patchAlert(a, alertCodemod))
	r := validateAlert(a)
	out, _ := r.Result["output"].(string)
	if r.Result["status"] != "passed" || r.Result["truncated"] != true || r.Result["outputBytes"] != float64(printed) ||
		len(out) != 1<<20 || !strings.HasSuffix(out, "y\ny\n") {
		t.Fatalf("result status %v truncated %v outputBytes %v, output of %d bytes", r.Result["status"], r.Result["truncated"], r.Result["outputBytes"], len(out))
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", server.Process.Pid))
	if err != nil {
		t.Skip("no /proc to read the server's peak memory from:", err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")))
			must(t, err)
			// The server alone peaks near 110 MB; a buffered output would be
			// 300 MB more.
			if n > 200<<10 {
				t.Errorf("the server's peak memory is %d kB after a validation printed %d MB", n, printed>>20)
			}
			t.Logf("server VmHWM %d kB after %d MB of output", n, printed>>20)
		}
	}
}

// TestSandboxUnavailable: where no sandbox can be made, validation
// commands and gated commits are refused with SANDBOX_UNAVAILABLE, and
// serve says so; with sandbox.allowUnsandboxed they run, unsandboxed, and
// serve says that. Runs with or without bwrap installed.
func TestSandboxUnavailable(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		ws := scriptWorkspace(t, "")
		gitRepo(t, ws)
		a, _, stderr := acceptScriptWork(t, ws, "MCPC_SANDBOX_BWRAP=/nonexistent/bwrap", "MCPC_SANDBOX_ALLOW_UNSANDBOXED=false")
		leakingPatch(t, a)
		if !strings.Contains(stderr.String(), "unavailable, so validation commands and side effects are refused") ||
			!strings.Contains(stderr.String(), "/nonexistent/bwrap") {
			t.Errorf("serve did not say commands are refused:\n%s", stderr)
		}
		denied := validateAlert(a)
		mustDeny(t, denied, "SANDBOX_UNAVAILABLE")
		if !strings.Contains(denied.Denials[0].Message, "/nonexistent/bwrap") || denied.SuggestedAction.Verb != "escalate" {
			t.Errorf("denial %+v, suggested %q", denied.Denials[0], denied.SuggestedAction.Verb)
		}
		if out, err := runCLI(ws, "gate", "approve", "--work", a.work, "--gate", "release-gate"); err != nil {
			t.Fatalf("gate approve: %v\n%s", err, out)
		}
		r := a.turn("execute_gated_side_effect", map[string]any{"planNodeId": "commit", "sideEffectType": "git_commit"})
		if !containsCode(r, "SANDBOX_UNAVAILABLE") {
			t.Errorf("the gated commit: %v %v", r.DenyReasons, r.Result)
		}
	})
	t.Run("allowed unsandboxed", func(t *testing.T) {
		config := fmt.Sprintf(`{"sandbox": {"allowUnsandboxed": true}, "validation": {"commands": {"no-adp-alert": {"argv": ["sh", %q]}}}}`, checkScript)
		ws := scriptWorkspace(t, config)
		a, _, stderr := acceptScriptWork(t, ws, "MCPC_SANDBOX_BWRAP=/nonexistent/bwrap", "MCPC_SANDBOX_ALLOW_UNSANDBOXED=")
		leakingPatch(t, a)
		if !strings.Contains(stderr.String(), "UNSANDBOXED") {
			t.Errorf("serve did not say commands run unsandboxed:\n%s", stderr)
		}
		r := validateAlert(a)
		mustAllow(t, r)
		if r.Result["status"] != "passed" || r.Result["sandboxed"] != false {
			t.Errorf("the unsandboxed validation: %v", r.Result)
		}
		// What the sandbox is for, and the proof that leaked() sees a
		// leak: unsandboxed, the same script reads .env and mcpc's
		// environment.
		out, _ := r.Result["output"].(string)
		if l := leaked(t, out); !containsString(l, dotenvCanary) || !containsString(l, envCanary) {
			t.Errorf("unsandboxed, the patched script leaked only %v:\n%s", l, out)
		}
	})
}

func containsCode(r *protocol.TurnResponse, code string) bool {
	for _, d := range r.Denials {
		if d.Code == code {
			return true
		}
	}
	return false
}

// writeCommitMessage writes the gated commit's message where the plan's
// side_effect node names it (sideEffectPayloadRef "scratch:commit-message").
func writeCommitMessage(t *testing.T, a *agent) {
	t.Helper()
	mustAllow(t, a.turn("write_scratch_file", map[string]any{"relativePath": "commit-message", "content": "Use sdf-alert on the dashboard\n"}))
}

// TestValidationOutputRedacted: what a validation prints passes the secret
// detector before it reaches the agent, sandboxed or not: a token the
// command assembles at run time comes back as a redaction mark.
func TestValidationOutputRedacted(t *testing.T) {
	ws := scriptWorkspace(t, "")
	a, _, _ := acceptScriptWork(t, ws, "MCPC_SANDBOX_ALLOW_UNSANDBOXED=1")
	// The token is built by the shell so that no file of the repository
	// holds it whole.
	const tail = "Zx9Kq2Lm8Np4Rt6Vw1Yb3Cd5Fg7Hj0AsDfGhJk"
	patchScript(t, a, "echo 'no adp-alert left'", "printf 'token=ghp_%s\\n' '"+tail[:36]+"'\necho 'no adp-alert left'")
	r := validateAlert(a)
	mustAllow(t, r)
	out, _ := r.Result["output"].(string)
	if strings.Contains(out, tail[:36]) || !strings.Contains(out, "[REDACTED:") || !strings.Contains(out, "no adp-alert left") {
		t.Fatalf("the validation output was not redacted:\n%s", out)
	}
}
