package controller

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/sandbox"
	"github.com/mcpc/mcpc/policies"
)

// outputRedactor removes secrets from what a command printed before it
// goes back to an agent (the secret detector of internal/secrets).
type outputRedactor interface {
	Redact(content []byte) []byte
}

// noRedaction leaves output as it is: for tests that judge the raw output.
type noRedaction struct{}

func (noRedaction) Redact(content []byte) []byte { return content }

// outputRedactionBudget bounds the scan of one command's output (at most
// sandbox.outputMaxBytes): what the detector did not reach in time is
// withheld, never returned unscanned.
const outputRedactionBudget = 2 * time.Second

// detectorRedaction is the default: the process's one secret detector.
// Without a detector nothing a command printed is returned (fail closed).
type detectorRedaction struct{}

func (detectorRedaction) Redact(content []byte) []byte {
	det, err := secretDetector()
	if err != nil {
		return []byte("[REDACTED: no secret detector: " + err.Error() + "]")
	}
	ctx, cancel := context.WithTimeout(context.Background(), outputRedactionBudget)
	defer cancel()
	return det.RedactContext(ctx, content)
}

// sandboxFacts tell policy whether the commands mcpc runs for an agent
// (validation commands, side effects) can run in a sandbox; where none can
// be made, policy refuses them unless configuration allows running them
// unsandboxed.
type sandboxFacts struct {
	Available        bool   `json:"available"`
	AllowUnsandboxed bool   `json:"allowUnsandboxed"`
	Reason           string `json:"reason"`
}

// newSandbox prepares the workspace's sandbox; its self-test runs now, once
// per process.
func (c *Controller) newSandbox() *sandbox.Sandbox {
	sc := c.cfg.Sandbox
	var cache sandbox.ScanCache
	if c.paths != nil {
		cache = keyScanCache{c}
	}
	return sandbox.New(sandbox.Options{
		Root: c.root, Network: sc.Network, Env: sc.Env, ReadOnlyPaths: sc.ReadOnlyPaths, Writable: sc.Writable, TmpBytes: sc.TmpMaxBytes,
		SecretGlobs: c.packExclusionGlobs, Hidden: c.protectedPaths(), KeyMaterial: keyMaterial, ScanCache: cache, AllowUnsandboxed: sc.AllowUnsandboxed,
	})
}

// SandboxMode says how validation commands and side effects run in this
// process ("sandboxed", "unsandboxed" or "refused") and, when not
// sandboxed, why no sandbox could be made.
func (c *Controller) SandboxMode() (mode, reason string) {
	return c.sandbox.Mode(), c.sandbox.Reason()
}

// packExclusionGlobs are the globs of what the pack may not hold (the pack
// policy's exclusions, secrets and mcpc's own files): a sandboxed command
// does not see those files either. They come from the policy the engine
// decides with, or the embedded one while no bundle is loaded.
func (c *Controller) packExclusionGlobs() []string {
	return c.policyGlobs("data/pack.json", "packpolicy", "exclusions")
}

// protectedPaths are mcpc's own files and folders (policies/data/
// protected.json, the table the scope and plan rules enforce): a sandboxed
// command neither reads nor writes them. The sandbox masks plain paths; a
// "dir/**" entry is its folder's, already masked whole.
func (c *Controller) protectedPaths() []string {
	var out []string
	for _, g := range c.policyGlobs("data/protected.json", "protectedPaths") {
		if !strings.ContainsAny(g, "*?[") {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return sandbox.DefaultHidden
	}
	return out
}

// policyGlobs reads the globs of a policy data table (under data.mcpc) from
// the policy the engine decides with, or from the embedded file while no
// bundle holds it.
func (c *Controller) policyGlobs(embedded string, table ...string) []string {
	raw := c.engine.Data(append([]string{"data", "mcpc"}, table...)...)
	if raw == nil { // policies/data loaded as its own root (mcpc.lib.tables reads both)
		raw = c.engine.Data(append([]string{"mcpc"}, table...)...)
	}
	if raw == nil {
		raw = embeddedTable(embedded, table...)
	}
	var rules []struct {
		Glob string `json:"glob"`
	}
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &rules)
	}
	if err != nil {
		c.log.Warn().Err(err).Strs("table", table).Msg("a policy table is unreadable; using the embedded one")
		b, _ = json.Marshal(embeddedTable(embedded, table...))
		_ = json.Unmarshal(b, &rules)
	}
	globs := make([]string, 0, len(rules))
	for _, r := range rules {
		globs = append(globs, r.Glob)
	}
	return globs
}

// embeddedTable is a table of an embedded policies/data file, under mcpc.
func embeddedTable(file string, table ...string) any {
	raw, err := fs.ReadFile(policies.FS, file)
	if err != nil {
		panic("the embedded policies lack " + file + ": " + err.Error())
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		panic("the embedded " + file + " is malformed: " + err.Error())
	}
	var v any = doc["mcpc"]
	for _, k := range table {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	return v
}

// commandOutcome is what a command run for an agent printed and how it
// ended: the output's tail (bounded, redacted) and its full size.
type commandOutcome struct {
	err       error
	exitCode  int
	started   bool
	timedOut  bool
	duration  time.Duration
	output    string
	bytes     int64
	truncated bool
}

// runCommand runs run in the sandbox (or unsandboxed where configuration
// allows it) with a timeout, in a process group of its own that is killed
// on timeout and when mcpc dies, streaming its output into a bounded tail.
func (c *Controller) runCommand(ctx context.Context, run sandbox.Run, timeout time.Duration) commandOutcome {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res := commandOutcome{exitCode: -1}
	if err := findProgram(run.Argv[0], filepath.Join(c.root, filepath.FromSlash(run.Dir))); err != nil {
		res.err = err
		return res
	}
	cmd, err := c.sandbox.Command(ctx, run)
	if err != nil {
		res.err = err
		return res
	}
	defer cmd.Close()
	out := sandbox.NewTail(c.cfg.Sandbox.OutputMaxBytes)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 2 * time.Second
	sandbox.OwnProcessGroup(cmd.Cmd)
	start := time.Now()
	res.err = cmd.Run()
	res.duration = time.Since(start)
	if cmd.ProcessState != nil {
		res.started = true
		res.exitCode = cmd.ProcessState.ExitCode()
	}
	res.timedOut = ctx.Err() == context.DeadlineExceeded
	res.output = string(c.redactor.Redact(out.Bytes()))
	res.bytes, res.truncated = out.Total(), out.Truncated()
	return res
}

// findProgram checks that argv0 exists where the command would look for
// it (PATH, or dir for a relative path), so that a program that is not
// there is reported as not started rather than as a failing command.
func findProgram(argv0, dir string) error {
	if !strings.Contains(argv0, "/") {
		_, err := exec.LookPath(argv0)
		return err
	}
	p := argv0
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	info, err := os.Stat(p)
	if err == nil && info.IsDir() {
		return &fs.PathError{Op: "exec", Path: argv0, Err: fs.ErrInvalid}
	}
	return err
}
