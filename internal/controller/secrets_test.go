package controller

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/secrets"
)

// scanController is a Controller with just what markSecrets uses, as a new
// process on root makes it.
func scanController(t *testing.T, root string) *Controller {
	t.Helper()
	res, err := pathscope.New(root)
	if err != nil {
		t.Fatal(err)
	}
	c := &Controller{root: res.Root(), paths: res, log: zerolog.Nop()}
	c.packScans = secrets.NewCache(packScanCache{c})
	return c
}

// TestMarkSecretsKeptBetweenProcesses: a second process marks the same
// pack from packScanFile without running the rules, and scans what
// changed since.
func TestMarkSecretsKeptBetweenProcesses(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"src/app.ts":     "export const answer = 42;\n",
		"deploy/ci.sh":   "export GITHUB_TOKEN=ghp_" + "0123456789abcdefghijABCDEFGHIJ012345\n",
		"docs/readme.md": "# notes\n",
	}
	for name, content := range files {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pack := func() []Candidate {
		return []Candidate{{File: "src/app.ts"}, {File: "deploy/ci.sh"}, {File: "docs/readme.md"}}
	}
	findings := func(cands []Candidate) map[string][]string {
		out := map[string][]string{}
		for _, c := range cands {
			out[c.File] = c.SecretFindings
		}
		return out
	}

	first := scanController(t, root)
	want := pack()
	first.markSecrets(context.Background(), want)
	if got := findings(want); len(got["src/app.ts"]) != 0 || !slices.Contains(got["deploy/ci.sh"], "github-pat") {
		t.Fatalf("findings %v, want github-pat in deploy/ci.sh alone", got)
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(packScanFile))); err != nil {
		t.Fatalf("no kept scan: %v", err)
	}

	second := scanController(t, root)
	got := pack()
	second.markSecrets(context.Background(), got)
	for file, ids := range findings(want) {
		if g := findings(got)[file]; !slices.Equal(g, ids) || g == nil {
			t.Errorf("%s: kept findings %v, want %v", file, g, ids)
		}
	}
	if s := second.packScans.Stats(); s.Scans != 0 || s.Hits != 3 {
		t.Errorf("second process %+v, want 3 hits and no scan", s)
	}
	if _, ok := second.cleanScans.Load("src/app.ts"); !ok {
		t.Error("a clean verdict from the kept scan did not spare reads their redaction")
	}

	// The agent gives the clean file a secret: the next process scans it.
	if err := os.WriteFile(filepath.Join(root, "src", "app.ts"), []byte("const key = 'ghp_"+"0123456789abcdefghijABCDEFGHIJ012345';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third := scanController(t, root)
	changed := pack()
	third.markSecrets(context.Background(), changed)
	if ids := findings(changed)["src/app.ts"]; !slices.Contains(ids, "github-pat") {
		t.Errorf("changed file's findings %v, want github-pat", ids)
	}
	if s := third.packScans.Stats(); s.Scans != 1 || s.Hits != 2 {
		t.Errorf("third process %+v, want the changed file scanned and 2 hits", s)
	}
}
