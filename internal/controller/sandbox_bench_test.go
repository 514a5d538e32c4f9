package controller

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpc/mcpc/examples"
	"github.com/mcpc/mcpc/internal/config"
	"github.com/mcpc/mcpc/internal/sandbox"
)

// The sandbox's start-up cost: the same command run in the sandbox and
// unsandboxed, in turn, pair by pair, on the example workspace (secret walk
// included). Each benchmark reports the medians of both and the median of
// the pairs' ratios (sandboxed / unsandboxed); ns/op is one pair.

// benchPair runs run in both controllers, alternately, b.N times.
func benchPair(b *testing.B, sandboxed, bare *Controller, run func(c *Controller) error) {
	b.Helper()
	var in, out, ratios []float64
	for i := 0; b.Loop(); i++ {
		first, second := sandboxed, bare
		if i%2 == 1 { // alternate the order: neither always runs on a warm cache
			first, second = bare, sandboxed
		}
		d := map[*Controller]time.Duration{}
		for _, c := range []*Controller{first, second} {
			start := time.Now()
			if err := run(c); err != nil {
				b.Fatal(err)
			}
			d[c] = time.Since(start)
		}
		in = append(in, float64(d[sandboxed].Microseconds()))
		out = append(out, float64(d[bare].Microseconds()))
		ratios = append(ratios, float64(d[sandboxed])/float64(d[bare]))
	}
	b.ReportMetric(pairMedian(in)/1000, "ms-sandboxed")
	b.ReportMetric(pairMedian(out)/1000, "ms-unsandboxed")
	b.ReportMetric(pairMedian(ratios), "median-ratio")
}

func pairMedian(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}

// benchControllers are a controller sandboxing its commands and one running
// them bare, on one copy of the example workspace made a git repository.
func benchControllers(b *testing.B) (sandboxed, bare *Controller, root string) {
	b.Helper()
	if err := sandbox.MachineCannotSandbox(); err != nil {
		b.Skip(err)
	}
	root = b.TempDir()
	if err := examples.CopyAngularShop(root); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=b", "-c", "user.email=b@localhost", "commit", "-q", "-m", "base"}} {
		if out, err := exec.Command("git", append([]string{"-C", root}, args...)...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	var rules []struct {
		Glob string `json:"glob"`
	}
	raw, _ := json.Marshal(embeddedTable("data/pack.json", "packpolicy", "exclusions"))
	if err := json.Unmarshal(raw, &rules); err != nil {
		b.Fatal(err)
	}
	var globs []string
	for _, r := range rules {
		globs = append(globs, r.Glob)
	}
	newController := func(opts sandbox.Options) *Controller {
		opts.Root = root
		sb := sandbox.New(opts)
		cfg := &config.Config{}
		cfg.Sandbox.OutputMaxBytes = 1 << 20
		return &Controller{root: root, cfg: cfg, sandbox: sb, redactor: noRedaction{}}
	}
	sandboxed = newController(sandbox.Options{SecretGlobs: func() []string { return globs }, KeyMaterial: keyMaterial})
	bare = newController(sandbox.Options{Bwrap: filepath.Join(root, "no-bwrap"), AllowUnsandboxed: true})
	if !sandboxed.sandbox.Available() {
		b.Fatal("bwrap makes no sandbox:", sandboxed.sandbox.Reason())
	}
	return sandboxed, bare, root
}

// BenchmarkSandboxValidation: the example's no-adp-alert validation
// command.
func BenchmarkSandboxValidation(b *testing.B) {
	sandboxed, bare, root := benchControllers(b)
	cfg, err := config.Load(root)
	if err != nil {
		b.Fatal(err)
	}
	argv := cfg.Validation.Commands["no-adp-alert"].Argv
	benchPair(b, sandboxed, bare, func(c *Controller) error {
		res, _ := c.runValidation(context.Background(), argv, "", time.Minute)
		if res["error"] != nil {
			b.Fatalf("%v", res)
		}
		return nil
	})
}

// BenchmarkSandboxHook: a git commit whose pre-commit hook runs (a shell
// script): the cost of sandboxing git with the hooks it runs.
func BenchmarkSandboxHook(b *testing.B) {
	sandboxed, bare, root := benchControllers(b)
	hook := filepath.Join(root, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntest -d src || exit 1\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	benchPair(b, sandboxed, bare, func(c *Controller) error {
		out, err := c.git(context.Background(), "commit", "-q", "--allow-empty", "-m", "bench")
		if err != nil {
			b.Fatalf("git commit: %v\n%s", err, out)
		}
		return nil
	})
}
