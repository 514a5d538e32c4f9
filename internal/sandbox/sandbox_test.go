package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var testKeyMaterial = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)

var testGlobs = []string{".env", "**/.env", "*.pem", "**/*.pem", ".aws/**", "**/.aws/**"}

// worktree writes files (path: content) under a new folder and returns it.
func worktree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(content), 0o755))
	}
	return root
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// newSandbox makes a sandbox of root, skipping the test where bwrap cannot
// make one (CI installs it).
func newSandbox(t *testing.T, opts Options) *Sandbox {
	t.Helper()
	if err := MachineCannotSandbox(); err != nil {
		t.Skip(err, "; .ci/run installs bubblewrap")
	}
	if opts.SecretGlobs == nil {
		opts.SecretGlobs = func() []string { return testGlobs }
	}
	if opts.KeyMaterial == nil {
		opts.KeyMaterial = testKeyMaterial
	}
	s := New(opts)
	if !s.Available() {
		t.Fatalf("bwrap is installed but makes no sandbox: %s", s.Reason())
	}
	return s
}

// run runs a shell script in s and returns its combined output and error.
func run(t *testing.T, s *Sandbox, r Run, script string) (string, error) {
	t.Helper()
	r.Argv = []string{"sh", "-c", script}
	cmd, err := s.Command(t.Context(), r)
	must(t, err)
	defer cmd.Close()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func TestWhatTheSandboxSees(t *testing.T) {
	root := worktree(t, map[string]string{
		"src/a.ts":              "export const a = 1\n",
		".env":                  "DOTENV_SECRET_1\n",
		"web/.env":              "DOTENV_SECRET_2\n",
		"certs/SERVER.PEM":      "PEM_SECRET_3\n",
		"home/.aws/credentials": "AWS_SECRET_4\n",
		"notes/deploy.txt":      "-----BEGIN OPENSSH PRIVATE KEY-----\nKEY_SECRET_5\n",
		".ai/config/repo.json":  `{"CONFIG_SECRET_6": 1}`,
		".ai/tmp/mcpc.db":       "STATE_SECRET_7",
		".mcp.json":             "MCP_SECRET_8",
		".claude/settings.json": "CLAUDE_SECRET_9",
		".git/config":           "GIT_SECRET_10",
	})
	must(t, os.Symlink(".env", filepath.Join(root, "link-to-env")))
	must(t, os.Symlink("/etc/shadow", filepath.Join(root, ".env.shadow")))
	s := newSandbox(t, Options{Root: root})

	out, err := run(t, s, Run{}, `cat src/a.ts; for f in .env web/.env certs/SERVER.PEM home/.aws/credentials notes/deploy.txt \
		.ai/config/repo.json .ai/tmp/mcpc.db .mcp.json .claude/settings.json .git/config link-to-env .env.shadow /etc/shadow; do cat "$f"; done 2>&1
		cat /proc/1/environ | tr '\0' '\n'; true`)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "export const a = 1") {
		t.Errorf("the worktree's source is not visible:\n%s", out)
	}
	if m := regexp.MustCompile(`[A-Z]+_SECRET_\d+`).FindAllString(out, -1); len(m) > 0 {
		t.Errorf("the sandbox read %v:\n%s", m, out)
	}
	// mcpc's folders and git's are there, but empty.
	if out, err := run(t, s, Run{}, "ls -A .ai/config .ai/tmp .claude .git"); err != nil || out != ".ai/config:\n\n.ai/tmp:\n\n.claude:\n\n.git:\n" {
		t.Errorf("the masked folders list %q (%v)", out, err)
	}
}

func TestMasksFollowTheWorktree(t *testing.T) {
	root := worktree(t, map[string]string{"src/a.ts": "a\n"})
	s := newSandbox(t, Options{Root: root})
	if out, _ := run(t, s, Run{}, "cat src/a.ts"); out != "a\n" {
		t.Fatalf("first run: %q", out)
	}
	// A file that became a secret after the first run (new, or given key
	// material) is masked in the next.
	must(t, os.WriteFile(filepath.Join(root, "src", "b.pem"), []byte("PEM_SECRET\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "src", "a.ts"), []byte("-----BEGIN RSA PRIVATE KEY-----\nKEY_SECRET\n"), 0o644))
	if out, _ := run(t, s, Run{}, "cat src/b.pem src/a.ts 2>&1"); strings.Contains(out, "_SECRET") {
		t.Errorf("second run read a new secret:\n%s", out)
	}
}

func TestEnvironmentIsScrubbed(t *testing.T) {
	t.Setenv("MCPC_TEST_PROCESS_SECRET", "ENV_SECRET_1")
	t.Setenv("MCPC_TEST_GRANTED", "granted-value")
	root := worktree(t, nil)
	s := newSandbox(t, Options{Root: root, Env: []string{"MCPC_TEST_GRANTED"}})
	out, err := run(t, s, Run{}, `env; cat /etc/passwd; cat /etc/group; for fd in 3 4 5 6 7; do [ -e /proc/$$/fd/$fd ] && echo "fd $fd is open"; done; true`)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, etcFiles["passwd"]) || !strings.Contains(out, etcFiles["group"]) {
		t.Errorf("the synthetic /etc/passwd and /etc/group are not there:\n%s", out)
	}
	if strings.Contains(out, "is open") {
		t.Errorf("the command inherited bwrap's descriptors:\n%s", out)
	}
	if strings.Contains(out, "ENV_SECRET_1") {
		t.Errorf("mcpc's environment reached the sandbox:\n%s", out)
	}
	for _, want := range []string{"MCPC_TEST_GRANTED=granted-value", "HOME=" + Home, "PATH="} {
		if !strings.Contains(out, want) {
			t.Errorf("no %s in the sandbox's environment:\n%s", want, out)
		}
	}
	host, err := os.ReadFile("/etc/passwd")
	must(t, err)
	for _, line := range strings.Split(string(host), "\n") {
		if line != "" && !strings.Contains(etcFiles["passwd"], line) && strings.Contains(out, line) {
			t.Errorf("the sandbox read the host's /etc/passwd line %q", line)
		}
	}
}

func TestWritesStayInTheSandbox(t *testing.T) {
	root := worktree(t, map[string]string{"src/a.ts": "a\n", "cache/x": "", ".husky/pre-commit": "#!/bin/sh\n", ".ai/config/repo.json": "{}", ".vscode/settings.json": "{}"})
	// Only cache is writable: the others are the worktree's root, outside
	// it, mcpc's own files or hold them.
	s := newSandbox(t, Options{Root: root, Writable: []string{"cache", "../outside", ".", "./", ".ai", ".ai/config", ".vscode", ".git"}, TmpBytes: 1 << 20})
	out, err := run(t, s, Run{}, `
		head -c 2000000 /dev/zero > /tmp/big || echo "tmp bounded"; rm -f /tmp/big
		echo x > src/a.ts || echo "worktree read-only"
		echo x > new.txt || echo "no new files"
		echo x > .husky/pre-commit || echo "hooks read-only"
		mkdir .claude || echo "no agent settings"
		echo x > .vscode/mcp.json || echo "no mcp settings"
		echo x > .ai/config/env.local.json || echo "no config"
		echo x > /tmp/t && echo "tmp writable"
		echo x > cache/y && echo "cache writable"`)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"tmp bounded", "worktree read-only", "no new files", "hooks read-only", "no agent settings", "no mcp settings", "no config", "tmp writable", "cache writable"} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q:\n%s", want, out)
		}
	}
	if got, _ := os.ReadFile(filepath.Join(root, "src", "a.ts")); string(got) != "a\n" {
		t.Errorf("the sandbox changed src/a.ts to %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "cache", "y")); err != nil {
		t.Errorf("the writable folder's file is not there: %v", err)
	}
}

// TestNoCapabilities: root in the sandbox cannot undo a mask.
func TestNoCapabilities(t *testing.T) {
	root := worktree(t, map[string]string{".env": "DOTENV_SECRET\n"})
	s := newSandbox(t, Options{Root: root})
	out, _ := run(t, s, Run{}, "umount .env; umount -l .env; mount --bind / /mnt; cat .env; cat /proc/self/status | grep CapEff")
	if strings.Contains(out, "DOTENV_SECRET") {
		t.Errorf("unmounting the mask revealed .env:\n%s", out)
	}
	if !strings.Contains(out, "CapEff:\t0000000000000000") {
		t.Errorf("the sandbox has capabilities:\n%s", out)
	}
}

func TestNetwork(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash (its /dev/tcp) connects in this test:", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	connect := fmt.Sprintf(`bash -c 'echo hi > /dev/tcp/127.0.0.1/%d' && echo connected`, port)
	for _, tc := range []struct {
		note    string
		network bool
		want    bool
	}{
		{note: "no network by default", network: false, want: false},
		{note: "network when granted", network: true, want: true},
	} {
		t.Run(tc.note, func(t *testing.T) {
			s := newSandbox(t, Options{Root: worktree(t, nil), Network: tc.network})
			out, _ := run(t, s, Run{}, connect)
			if got := strings.Contains(out, "connected"); got != tc.want {
				t.Errorf("connected to mcpc's loopback listener: %v, want %v\n%s", got, tc.want, out)
			}
		})
	}
}

func TestGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed:", err)
	}
	root := worktree(t, map[string]string{"src/a.ts": "a\n", ".env": "DOTENV_SECRET\n"})
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "src/a.ts")
	must(t, os.WriteFile(filepath.Join(root, ".git", "hooks", "pre-commit"),
		[]byte("#!/bin/sh\ncat .env\necho '[core]\nfsmonitor = /tmp/x' >> .git/config || echo config read-only\n"), 0o755))
	s := newSandbox(t, Options{Root: root})

	out, err := run(t, s, Run{}, "ls -A .git; git status 2>&1; true")
	if err != nil || strings.TrimSpace(strings.Split(out, "\n")[0]) != "" && !strings.Contains(out, "not a git repository") {
		t.Errorf("without Git the sandbox sees the repository:\n%s", out)
	}
	out, err = run(t, s, Run{Git: true}, "git -c user.name=t -c user.email=t@localhost commit -q -m sandboxed -- src/a.ts 2>&1")
	if err != nil {
		t.Fatalf("git commit in the sandbox: %v\n%s", err, out)
	}
	if strings.Contains(out, "DOTENV_SECRET") || !strings.Contains(out, "config read-only") {
		t.Errorf("the hook read .env or could write .git/config:\n%s", out)
	}
	config, _ := os.ReadFile(filepath.Join(root, ".git", "config"))
	if strings.Contains(string(config), "fsmonitor") {
		t.Errorf("the hook changed .git/config:\n%s", config)
	}
	if log, err := exec.Command("git", "-C", root, "log", "--format=%s").Output(); err != nil || string(log) != "sandboxed\n" {
		t.Errorf("git log: %q %v", log, err)
	}
}

// TestUnavailable: without bwrap, commands are refused unless running them
// unsandboxed is allowed.
func TestUnavailable(t *testing.T) {
	root := worktree(t, map[string]string{"a.txt": "a\n"})
	for _, tc := range []struct {
		note  string
		allow bool
		mode  string
	}{
		{note: "refused", allow: false, mode: "refused"},
		{note: "allowed unsandboxed", allow: true, mode: "unsandboxed"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			s := New(Options{Root: root, Bwrap: filepath.Join(root, "no-bwrap"), AllowUnsandboxed: tc.allow})
			if s.Available() || !strings.Contains(s.Reason(), "no-bwrap") || s.Mode() != tc.mode {
				t.Fatalf("available %v, reason %q, mode %q; want mode %q", s.Available(), s.Reason(), s.Mode(), tc.mode)
			}
			cmd, err := s.Command(context.Background(), Run{Argv: []string{"cat", "a.txt"}})
			if !tc.allow {
				if !errors.Is(err, ErrUnavailable) {
					t.Fatalf("Command: %v, want ErrUnavailable", err)
				}
				return
			}
			must(t, err)
			defer cmd.Close()
			if out, err := cmd.Output(); err != nil || string(out) != "a\n" {
				t.Errorf("unsandboxed run: %q %v", out, err)
			}
		})
	}
}

func TestBwrapEnv(t *testing.T) {
	t.Setenv(BwrapEnv, "/nonexistent/bwrap")
	s := New(Options{Root: t.TempDir()})
	if s.Available() || !strings.Contains(s.Reason(), "/nonexistent/bwrap") {
		t.Errorf("available %v, reason %q", s.Available(), s.Reason())
	}
}

func TestCancelKillsTheSandbox(t *testing.T) {
	s := newSandbox(t, Options{Root: worktree(t, nil)})
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	cmd, err := s.Command(ctx, Run{Argv: []string{"sh", "-c", "sleep 30 & sleep 30"}})
	must(t, err)
	defer cmd.Close()
	start := time.Now()
	_ = cmd.Run()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the cancelled sandbox ran %v", d)
	}
}

// TestNothingOutlivesTheCommand: a process the command leaves running, even
// in a session of its own, ends with the sandbox (its PID namespace).
func TestNothingOutlivesTheCommand(t *testing.T) {
	s := newSandbox(t, Options{Root: worktree(t, nil)})
	marker := fmt.Sprintf("61.%09d", time.Now().UnixNano()%1e9)
	if out, err := run(t, s, Run{}, "setsid sleep "+marker+" > /dev/null 2>&1 & echo started"); err != nil || out != "started\n" {
		t.Fatalf("%q %v", out, err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		alive := false
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			if raw, err := os.ReadFile(p); err == nil && string(raw) == "sleep\x00"+marker+"\x00" {
				alive = true
			}
		}
		if !alive {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the command's detached sleep outlived it")
		}
	}
}
