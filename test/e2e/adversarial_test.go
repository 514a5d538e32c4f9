package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpc/mcpc/internal/demo"
)

const (
	outsideSecret = "OUTSIDE-SECRET-7f3a"
	gitSecret     = "GIT-SECRET-19c2"
)

// hostileWorkspace adds links, a FIFO, a device link and .git internals that
// lead out of the worktree or would block a read.
func hostileWorkspace(t *testing.T) (ws, outside string) {
	t.Helper()
	ws = newWorkspace(t)
	outside = t.TempDir()
	secret := filepath.Join(outside, "secret.ts")
	must(t, os.WriteFile(secret, []byte("export const s = '"+outsideSecret+"';\n"), 0o644))
	app := filepath.Join(ws, "src", "app")
	must(t, os.Symlink(secret, filepath.Join(app, "leak.ts")))
	must(t, os.Symlink(outside, filepath.Join(ws, "src", "linkdir")))
	must(t, os.Symlink("/dev/zero", filepath.Join(app, "zero.ts")))
	must(t, os.Symlink("loop-b.ts", filepath.Join(app, "loop-a.ts")))
	must(t, os.Symlink("loop-a.ts", filepath.Join(app, "loop-b.ts")))
	must(t, os.Link(secret, filepath.Join(app, "hard.ts")))
	must(t, syscall.Mkfifo(filepath.Join(app, "fifo.ts"), 0o644))
	must(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(ws, ".git", "config"), []byte("[remote] token = "+gitSecret+"\n"), 0o644))
	return ws, outside
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// hostilePaths are the path spellings every file verb must refuse.
func hostilePaths(ws, outside string) []string {
	base := filepath.Base(ws)
	paths := []string{
		// traversal, plain and encoded
		"../secret.ts", "../../../../etc/passwd", "src/../../" + base + "/" + demo.Target, "src/app/../../../etc/hosts",
		"./../etc/passwd", "src/./../../etc/passwd", "..", "../", "...", ".../etc/passwd", "....//....//etc/passwd",
		"..;/etc/passwd", "..%2fetc%2fpasswd", "%2e%2e/etc/passwd", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "%252e%252e%252fetc",
		"..%252f..%252fetc/passwd", "%c0%ae%c0%ae/etc/passwd", "%c0%af", "src%2fapp%2fdashboard", "src/app/%2e%2e/%2e%2e/x",
		"..\\..\\windows\\win.ini", "src\\app\\dashboard\\dashboard.component.html", "..\\/etc/passwd",
		// absolute, home, Windows, UNC, URLs
		"/etc/passwd", "/etc/shadow", "/proc/self/environ", "/dev/zero", outside + "/secret.ts", ws + "/" + demo.Target,
		"~/.ssh/id_rsa", "~root/.bashrc", "C:\\Windows\\win.ini", "C:/Windows/win.ini", "c:secret", "\\\\server\\share\\x",
		"//server/share/x", "file:///etc/passwd", "file:/etc/passwd", "http://127.0.0.1/x", "https://example.test/x",
		"jar:file:/x!/y", "\\\\?\\C:\\x",
		// NUL, newlines and control bytes
		demo.Target + "\x00.png", "src/app\x00/../../etc/passwd", demo.Target + "\n", "src/app/\r\ndashboard", "\x1b[2J",
		"src/app/dash\tboard.ts", "src/\x7fapp",
		// unicode lookalikes and invisibles
		"src/app/dashboard/dashboard.component.html\u200b", "\u202esrc/app/lmth.x", "src/app/\ufeffdashboard",
		"ѕrc/app/dashboard/dashboard.component.html", "src/app/dashboard/dashboard․component.html",
		"\uff0e\uff0e/\uff0e\uff0e/etc/passwd", "\uff0e\uff0e\uff0fetc\uff0fpasswd", "..\u2215..\u2215etc\u2215passwd",
		"..\u2044etc", "\u3002\u3002/etc", "src/app/dashboard/dashboard.component.html\u0301", "src/app/../\u2024\u2024/etc",
		"\xc0\xae\xc0\xae/etc/passwd", "\xff\xfe", "src/app/\xe2\x80\xae",
		// case variants (Linux is case-sensitive; none is the pack's file)
		"SRC/APP/DASHBOARD/DASHBOARD.COMPONENT.HTML", "Src/App/Dashboard/Dashboard.Component.Html", "src/app/dashboard/Dashboard.component.html",
		// links, devices, FIFOs
		"src/app/leak.ts", "src/linkdir/secret.ts", "src/linkdir", "src/app/zero.ts", "src/app/fifo.ts", "src/app/hard.ts",
		"src/app/loop-a.ts", "src/app/loop-b.ts", "src/app/leak.ts/", "src/linkdir/../linkdir/secret.ts",
		// .git internals and mcpc's own state
		".git/config", ".git/HEAD", ".GIT/config", ".Git/config", "src/../.git/config", "./.git/config", ".git",
		".ai/tmp/mcpc.db", ".ai/tmp/mcpc.db-wal", ".ai/tmp/work", ".AI/tmp/mcpc.db", "src/../.ai/tmp/mcpc.db",
		// odd but not escaping: not pack files
		"", ".", "./", "/", "//", "src//app", "src/app/", "src/app", "src", "nonexistent.ts",
		strings.Repeat("a/", 2100) + "x", strings.Repeat("x", 300) + ".ts",
	}
	for i := 1; i <= 6; i++ {
		paths = append(paths, strings.Repeat("../", i)+"etc/passwd", strings.Repeat("..%2f", i)+"etc%2fpasswd")
	}
	return paths
}

// TestAdversarialPaths: none of the hostile spellings may read, search or
// write outside what the pack or the scratch folder allows, and none may
// hang the server.
func TestAdversarialPaths(t *testing.T) {
	ws, outside := hostileWorkspace(t)
	roomyBudget(t, ws)
	a := startServer(t, ws)
	init := a.initialize("Review the dashboard template and its alert", "dashboard", "leak", "hard", "fifo", "secret")
	for _, f := range packFiles(init) {
		if strings.Contains(f, "leak") || strings.Contains(f, "fifo") || strings.Contains(f, "zero") || strings.HasPrefix(f, ".git") || strings.HasPrefix(f, ".ai/tmp") {
			t.Errorf("the pack holds %s", f)
		}
	}
	outsideBefore := treeHash(t, outside)
	paths := hostilePaths(ws, outside)
	n := 0
	check := func(t *testing.T, verb string, args map[string]any, codes ...string) {
		t.Helper()
		n++
		resp := a.turn(verb, args)
		if len(resp.Denials) == 0 {
			t.Fatalf("%s %q was allowed: %v", verb, args, resp.Result)
		}
		ok := false
		for _, c := range codes {
			ok = ok || resp.Denials[0].Code == c
		}
		if !ok {
			t.Errorf("%s: got %v, want one of %v", verb, resp.DenyReasons, codes)
		}
		raw, _ := json.Marshal(resp)
		if strings.Contains(string(raw), outsideSecret) || strings.Contains(string(raw), gitSecret) {
			t.Fatalf("%s %q leaked a secret", verb, args)
		}
	}
	for i, p := range paths {
		t.Run(fmt.Sprintf("read/%03d", i), func(t *testing.T) {
			check(t, "read_file_lines", map[string]any{"targetFile": p}, "PACK_SCOPE_VIOLATION", "INVALID_ARGS")
		})
		t.Run(fmt.Sprintf("symbol/%03d", i), func(t *testing.T) {
			check(t, "lookup_symbol_definition", map[string]any{"symbol": "s", "targetFile": p}, "PACK_SCOPE_VIOLATION", "INVALID_ARGS")
		})
		t.Run(fmt.Sprintf("scratch/%03d", i), func(t *testing.T) {
			n++
			resp := a.turn("write_scratch_file", map[string]any{"relativePath": p, "content": "pwned"})
			if len(resp.Denials) > 0 {
				// EXEC_FAILED: allowed by policy, refused by the no-follow writer
				// (nothing written), recorded as a structured denial.
				if c := resp.Denials[0].Code; c != "SCRATCH_SCOPE_VIOLATION" && c != "INVALID_ARGS" && c != "EXEC_FAILED" {
					t.Errorf("scratch %q: %v", p, resp.DenyReasons)
				}
				return
			}
			// Allowed only as a plain file inside the work's scratch folder.
			written, _ := resp.Result["written"].(string)
			if written == "" && resp.Result["error"] != nil {
				return // allowed by policy, refused by the no-follow writer: nothing written
			}
			scratch := filepath.Join(ws, ".ai", "tmp", "work", a.work, "scratch")
			real, err := filepath.EvalSymlinks(filepath.Join(ws, written))
			if err != nil || !strings.HasPrefix(real, scratch+string(filepath.Separator)) {
				t.Fatalf("scratch %q wrote %q (real %q), outside %s", p, written, real, scratch)
			}
		})
	}
	if n < 100 {
		t.Errorf("only %d adversarial cases", n)
	}
	t.Logf("%d adversarial turns over %d path spellings", n, len(paths))
	if treeHash(t, outside) != outsideBefore {
		t.Errorf("a hostile turn changed files outside the worktree")
	}
	if data, _ := os.ReadFile(filepath.Join(ws, ".git", "config")); !strings.Contains(string(data), gitSecret) || strings.Contains(string(data), "pwned") {
		t.Errorf(".git/config was changed")
	}
	// Search never answers from outside the pack, even when asked for the secret.
	s := a.turn("search_codebase_text", map[string]any{"pattern": "SECRET", "regex": false})
	mustAllow(t, s)
	if raw, _ := json.Marshal(s); strings.Contains(string(raw), outsideSecret) {
		t.Errorf("search leaked the outside secret")
	}
	// And the server still answers.
	mustAllow(t, a.turn("read_file_lines", map[string]any{"targetFile": demo.Target}))
}
