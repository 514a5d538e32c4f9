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
	return sandbox.New(sandbox.Options{
		Root: c.root, Network: sc.Network, Env: sc.Env, ReadOnlyPaths: sc.ReadOnlyPaths, Writable: sc.Writable, TmpBytes: sc.TmpMaxBytes,
		SecretGlobs: c.packExclusionGlobs, KeyMaterial: keyMaterial, AllowUnsandboxed: sc.AllowUnsandboxed,
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
	raw := c.engine.Data("data", "mcpc", "packpolicy", "exclusions")
	if raw == nil { // policies/data loaded as its own root (mcpc.lib.tables reads both)
		raw = c.engine.Data("mcpc", "packpolicy", "exclusions")
	}
	if raw == nil {
		raw = embeddedExclusions()
	}
	var rules []struct {
		Glob string `json:"glob"`
	}
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &rules)
	}
	if err != nil {
		c.log.Warn().Err(err).Msg("the pack policy's exclusions are unreadable; using the embedded ones")
		b, _ = json.Marshal(embeddedExclusions())
		_ = json.Unmarshal(b, &rules)
	}
	globs := make([]string, 0, len(rules))
	for _, r := range rules {
		globs = append(globs, r.Glob)
	}
	return globs
}

// embeddedExclusions are policies/data/pack.json's exclusions.
func embeddedExclusions() any {
	raw, err := fs.ReadFile(policies.FS, "data/pack.json")
	if err != nil {
		panic("the embedded policies lack data/pack.json: " + err.Error())
	}
	var doc struct {
		MCPC struct {
			PackPolicy struct {
				Exclusions any `json:"exclusions"`
			} `json:"packpolicy"`
		} `json:"mcpc"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		panic("the embedded data/pack.json is malformed: " + err.Error())
	}
	return doc.MCPC.PackPolicy.Exclusions
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
