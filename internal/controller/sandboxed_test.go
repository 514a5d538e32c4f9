package controller

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/sandbox"
)

// dataOnly is a decider that holds policy data and decides nothing.
type dataOnly map[string]any

func (dataOnly) Evaluate(context.Context, any, any) ([]byte, []byte, error) {
	return nil, nil, errors.New("dataOnly decides nothing")
}

func (dataOnly) EvaluateStage1(context.Context, any, any) ([]byte, []byte, error) {
	return nil, nil, errors.New("dataOnly decides nothing")
}

func (dataOnly) EvaluateQuery(context.Context, string, any, any) error {
	return errors.New("dataOnly decides nothing")
}

func (dataOnly) Version() string { return "test" }

func (d dataOnly) Data(path ...string) any {
	var cur any = map[string]any(d)
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

func exclusionsData(globs ...string) map[string]any {
	rules := []any{}
	for _, g := range globs {
		rules = append(rules, map[string]any{"glob": g, "reason": "test", "secret": true})
	}
	return map[string]any{"mcpc": map[string]any{"packpolicy": map[string]any{"exclusions": rules}}}
}

// TestPackExclusionGlobs: the sandbox masks what the policy the engine
// decides with excludes from packs, wherever its data is rooted, and the
// embedded policy's exclusions while no bundle is loaded.
func TestPackExclusionGlobs(t *testing.T) {
	for _, tc := range []struct {
		note   string
		engine dataOnly
		want   string // one of the globs
		count  int    // how many, 0 for any
	}{
		{note: "under data (policies/ as the root)", engine: dataOnly{"data": exclusionsData("*.secret", "vault/**")}, want: "*.secret", count: 2},
		{note: "policies/data as its own root", engine: dataOnly(exclusionsData("*.secret")), want: "*.secret", count: 1},
		{note: "no bundle loaded", engine: dataOnly{}, want: "**/.env"},
	} {
		t.Run(tc.note, func(t *testing.T) {
			c := &Controller{engine: tc.engine}
			globs := c.packExclusionGlobs()
			if !slices.Contains(globs, tc.want) || tc.count > 0 && len(globs) != tc.count {
				t.Errorf("globs %v, want %d with %q", globs, tc.count, tc.want)
			}
		})
	}
}

// TestValidationMasksPolicyExclusions: a file a bundle's policy calls a
// secret is masked for a validation command.
func TestValidationMasksPolicyExclusions(t *testing.T) {
	if err := sandbox.MachineCannotSandbox(); err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	for name, content := range map[string]string{"vault/token.txt": "VAULT_SECRET\n", "notes.secret": "NOTES_SECRET\n", "src/a.ts": "SOURCE\n"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &config.Config{}
	cfg.Sandbox.OutputMaxBytes = 1 << 20
	c := &Controller{root: root, cfg: cfg, engine: dataOnly{"data": exclusionsData("*.secret", "vault/**")}, redactor: noRedaction{}}
	c.sandbox = c.newSandbox()
	res, _ := c.runValidation(context.Background(), []string{"sh", "-c", "cat vault/token.txt notes.secret src/a.ts 2>&1; true"}, "", 30*time.Second)
	out, _ := res["output"].(string)
	if res["sandboxed"] != true || !strings.Contains(out, "SOURCE") || strings.Contains(out, "_SECRET") {
		t.Errorf("result %v", res)
	}
}

// TestValidationMasksKeyMaterialAcrossProcesses: the sandbox's key scan is
// kept in the state folder, and a process that reads it back still masks
// key material written after the last process ran a command (a new file,
// an indexed one given a key), while it reads only what changed.
func TestValidationMasksKeyMaterialAcrossProcesses(t *testing.T) {
	if err := sandbox.MachineCannotSandbox(); err != nil {
		t.Skip(err)
	}
	root := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("src/a.ts", "SOURCE\n")
	write("src/b.ts", "OTHER\n")
	// The scan keeps no verdict on content changed within the last two
	// seconds (a write in the same clock tick could keep its stamp).
	time.Sleep(2100 * time.Millisecond)
	process := func() *Controller {
		t.Helper()
		paths, err := pathscope.New(root)
		if err != nil {
			t.Fatal(err)
		}
		cfg := &config.Config{}
		cfg.Sandbox.OutputMaxBytes = 1 << 20
		c := &Controller{root: root, cfg: cfg, paths: paths, engine: dataOnly{}, redactor: noRedaction{}}
		c.sandbox = c.newSandbox()
		return c
	}
	validate := func(c *Controller) string {
		t.Helper()
		res, _ := c.runValidation(context.Background(), []string{"sh", "-c", "cat src/*.ts 2>&1; true"}, "", 30*time.Second)
		out, _ := res["output"].(string)
		if res["sandboxed"] != true || !strings.Contains(out, "OTHER") {
			t.Fatalf("result %v", res)
		}
		return out
	}
	validate(process())
	if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(keyScanFile))); err != nil || info.Size() == 0 {
		t.Fatalf("no key scan kept: %v", err)
	}
	write("src/new.ts", "-----BEGIN EC PRIVATE KEY-----\nNEW_SECRET\n")
	write("src/a.ts", "aws_secret_access_key = A_SECRET\n")
	if out := validate(process()); strings.Contains(out, "_SECRET") {
		t.Errorf("a new process's command read key material:\n%s", out)
	}
}

// TestProtectedPaths: the sandbox hides mcpc's own files as the policy's
// protectedPaths table lists them (its plain paths), the embedded table
// while no bundle holds one.
func TestProtectedPaths(t *testing.T) {
	for _, tc := range []struct {
		note   string
		engine dataOnly
		want   []string
	}{
		{note: "from the policy", want: []string{".ai/config", "secrets.d"}, engine: dataOnly{"data": map[string]any{"mcpc": map[string]any{
			"protectedPaths": []any{
				map[string]any{"glob": ".ai/config"}, map[string]any{"glob": ".ai/config/**"}, map[string]any{"glob": "secrets.d"},
			}}}}},
	} {
		t.Run(tc.note, func(t *testing.T) {
			c := &Controller{engine: tc.engine}
			if got := c.protectedPaths(); !slices.Equal(got, tc.want) {
				t.Errorf("protectedPaths() = %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("embedded", func(t *testing.T) {
		c := &Controller{engine: dataOnly{}}
		got := c.protectedPaths()
		for _, p := range []string{".ai/config", ".ai/memory", ".orchestration", ".mcp.json", ".vscode/mcp.json"} {
			if !slices.Contains(got, p) {
				t.Errorf("%s is not hidden: %v", p, got)
			}
		}
		for _, p := range got {
			if strings.Contains(p, "*") {
				t.Errorf("a glob reached the sandbox's paths: %s", p)
			}
		}
	})
}
