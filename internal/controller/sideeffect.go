package controller

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/sandbox"
	"github.com/mcpc/mcpc/internal/store"
)

// gitCommit is the one side effect type this build executes; policy gets
// it as config.sideEffectExecutors and decides which node may run.
const gitCommit = "git_commit"

// runSideEffect carries out a side_effect node whose commit gate a person
// approved and whose type has an executor (policy checked both: side-effect-gate,
// side-effect-executor). git_commit commits the files this work's change
// nodes patched, and nothing else. The commit runs after the turn's
// transaction: git runs the repository's hooks, which may take minutes, and
// no other agent's turn should wait for them.
func (c *Controller) runSideEffect(_ context.Context, _ *store.Tx, t *turn) error {
	nodeID, _ := t.args["planNodeId"].(string)
	var node planNode
	if n, ok := findNode(t.nodes, nodeID); ok {
		node = decodeNode(n)
	}
	if node.SideEffectType != gitCommit {
		// Unreachable under the bundled policy (side-effect-executor); a
		// replaced bundle that allows it gets a recorded denial.
		t.fail("not_executable", "args.planNodeId", fmt.Sprintf("side effect type %q has no executor in this build (git_commit has)", node.SideEffectType))
		return nil
	}
	work := *t.work
	t.afterTx = func(ctx context.Context) { c.gatedCommit(ctx, t, &work, nodeID, node.CommitGateID) }
	return nil
}

// Gated commits of a workspace run one at a time, across processes: the
// lock file is held while git runs (the kernel drops it if mcpc dies), and
// a commit that hangs in a hook is stopped after sideEffects.timeoutSec
// (default gatedCommitTimeout).
const (
	sideEffectLock     = ".ai/tmp/side-effects.lock"
	gatedCommitTimeout = 10 * time.Minute
)

// gatedCommit commits what the work patched, once: another agent may have
// executed the node while this one waited for the lock, so the node and the
// patched files are read again under it.
func (c *Controller) gatedCommit(ctx context.Context, t *turn, work *store.Work, nodeID, gate string) {
	unlock, err := c.paths.Lock(sideEffectLock)
	if err != nil {
		c.log.Warn().Err(err).Msg("the gated commit could not take its lock")
		c.failAfterTx(ctx, t, "io_error", "args.planNodeId", "the gated commit could not take its lock")
		return
	}
	defer unlock()
	var files []string
	status := ""
	err = c.store.View(ctx, func(tx *store.Tx) error {
		nodes, err := tx.Nodes(ctx, work.ID, false)
		for _, n := range nodes {
			switch {
			case n.NodeID == nodeID:
				status = n.Status
			case n.Kind == "change" && n.Status == statusPatched && n.TargetFile != "":
				files = append(files, n.TargetFile)
			}
		}
		return err
	})
	switch {
	case err != nil:
		c.log.Warn().Err(err).Msg("the plan could not be read")
		c.failAfterTx(ctx, t, "io_error", "args.planNodeId", "the plan could not be read")
		return
	case status != statusPending:
		c.failAfterTx(ctx, t, "already_executed", "args.planNodeId", fmt.Sprintf("side_effect node %q is %s: another agent's run executed it", nodeID, status))
		return
	case len(files) == 0:
		c.failAfterTx(ctx, t, "nothing_to_commit", "args.planNodeId", "no change node has been patched: nothing to commit")
		return
	}
	ctx, cancel := context.WithTimeout(ctx, c.sideEffectTimeout())
	defer cancel()
	// The message is the agent's payload as read for the decision (policy
	// refused a missing or empty one), nothing of mcpc's own state.
	msg := t.commitMessage
	if out, err := c.git(ctx, append([]string{"add", "--"}, files...)...); err != nil {
		c.failAfterTx(ctx, t, "io_error", "args.planNodeId", "git add failed: "+clipOutput(out))
		return
	}
	if out, err := c.git(ctx, append([]string{"commit", "-m", msg, "--"}, files...)...); err != nil {
		c.failAfterTx(ctx, t, "io_error", "args.planNodeId", "git commit failed: "+clipOutput(out))
		return
	}
	sha, _ := c.git(ctx, "rev-parse", "HEAD")
	dir := artifactDir(work.ID, nodeID)
	c.writeArtifact(dir, "result.json", map[string]any{"nodeId": nodeID, "sideEffectType": "git_commit", "commit": sha, "files": files,
		"commitGateId": gate})
	err = c.updateAfterTurn(ctx, t, work.ID, func(tx *store.Tx) error {
		if err := failpointError("side-effect-record"); err != nil {
			return err
		}
		return tx.SetNodeStatus(ctx, work.ID, nodeID, statusExecuted)
	})
	if err != nil {
		// The commit exists whatever the store holds: the answer says so as
		// facts, and the turn is a recorded SIDE_EFFECT_UNRECORDED denial
		// (the node is still pending, so a retry would commit again). The
		// store's error stays in the log.
		c.log.Error().Err(err).Str("commit", sha).Msg("a gated commit was made but not recorded")
		t.result["commit"] = sha
		t.result["files"] = files
		t.result["artifactBundleRef"] = dir
		c.failAfterTxWith(ctx, t, executionFailure{Reason: "side_effect_unrecorded", Path: "args.planNodeId", Commit: sha,
			Message: fmt.Sprintf("side_effect node %s made its commit, but the node could not be marked executed", nodeID)})
		return
	}
	t.result["executed"] = true
	t.result["commit"] = sha
	t.result["files"] = files
	t.result["artifactBundleRef"] = dir
}

// git runs git in the workspace's sandbox, with the repository's git
// folder (its config and hooks read-only): git add and commit, and the
// hooks they run, see what a validation command sees. Its output is
// bounded and redacted: a hook's error goes back to the agent. Without a
// configured identity it commits as mcpc, so a gated commit never fails on
// a fresh machine; the identity is read here, outside, because the sandbox
// has no HOME with a global git config.
func (c *Controller) git(ctx context.Context, args ...string) (string, error) {
	if args[0] == "commit" {
		name, email := c.gitConfig(ctx, "user.name"), c.gitConfig(ctx, "user.email")
		if email == "" {
			name, email = "mcpc", "mcpc@localhost"
		}
		if name == "" {
			name = "mcpc"
		}
		args = append([]string{"-c", "user.name=" + name, "-c", "user.email=" + email}, args...)
	}
	// --literal-pathspecs: a file named "*.ts" or ":(glob)**" must name only
	// itself, or a gated commit would take in files nobody approved.
	argv := append([]string{"git", "-C", c.root, "--literal-pathspecs"}, args...)
	out := c.runCommand(ctx, sandbox.Run{Argv: argv, Git: true}, c.sideEffectTimeout())
	if out.err != nil && !out.started {
		return "git did not run: " + out.err.Error(), out.err
	}
	return strings.TrimSpace(out.output), out.err
}

// gitConfig reads one value of the repository's git configuration (with
// the user's global one), outside the sandbox: "" when unset.
func (c *Controller) gitConfig(ctx context.Context, key string) string {
	out, _ := exec.CommandContext(ctx, "git", "-C", c.root, "config", key).Output()
	return strings.TrimSpace(string(out))
}

// clipOutput keeps the end of a command's output for a denial message: the
// reason a hook refused is usually on its last lines.
func clipOutput(out string) string {
	const keep = 600
	if len(out) > keep {
		return "…" + out[len(out)-keep:]
	}
	return out
}

// sideEffectTimeout is how long a gated side effect (git and its hooks) may
// run: sideEffects.timeoutSec, by default gatedCommitTimeout.
func (c *Controller) sideEffectTimeout() time.Duration {
	if c.cfg.SideEffects.TimeoutSec > 0 {
		return time.Duration(c.cfg.SideEffects.TimeoutSec) * time.Second
	}
	return gatedCommitTimeout
}
