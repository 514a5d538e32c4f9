package controller

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpc/mcpc/internal/sandbox"
	"github.com/mcpc/mcpc/internal/store"
)

// runRecipe runs run_targeted_validation: the command named in config, never
// one from the agent. The node is marked running inside the turn and the
// command runs after the store lock is released.
func (c *Controller) runRecipe(ctx context.Context, tx *store.Tx, t *turn) error {
	recipe, _ := t.args["recipeId"].(string)
	nodeID, _ := t.args["planNodeId"].(string)
	if recipe == recipeReplaceLexeme {
		return c.replaceLexeme(ctx, tx, t)
	}
	if recipe != recipeValidation {
		t.fail("not_executable", "args.recipeId", recipe+" has no executor in this build")
		return nil
	}
	params, _ := t.args["params"].(map[string]any)
	cmdID, _ := params["commandId"].(string)
	cmd, ok := c.cfg.Validation.Commands[cmdID]
	if !ok {
		t.fail("not_executable", "args.params.commandId", "validation command "+cmdID+" is not configured")
		return nil
	}
	// Runs of one node may overlap (two agents, two processes): each has a
	// token, and only the node's latest run records its outcome.
	run := newID("run")
	if err := c.startRun(ctx, tx, t, nodeID, statusRunning, run); err != nil {
		return err
	}
	if err := c.recordRecipe(ctx, tx, t, map[string]any{"run": run, "argv": cmd.Argv}); err != nil {
		return err
	}
	workID := t.work.ID
	t.afterTx = func(ctx context.Context) {
		reportProgress(ctx, 0, 1, "running validation command "+cmdID)
		outcome, startErr := c.runValidation(ctx, cmd.Argv, cmd.Dir, time.Duration(cmd.TimeoutSec)*time.Second)
		reportProgress(ctx, 1, 1, "validation command "+cmdID+" finished")
		outcome["commandId"] = cmdID
		outcome["nodeId"] = nodeID
		status := statusFailed
		if outcome["passed"] == true {
			status = statusPassed
		}
		recorded := false
		err := c.updateAfterTurn(ctx, t, workID, func(tx *store.Tx) (err error) {
			if err := failpointError("validation-record"); err != nil {
				return err
			}
			if recorded, err = tx.FinishRun(ctx, workID, nodeID, run, status); err != nil || !recorded {
				return err
			}
			nodes, err := tx.Nodes(ctx, workID, false)
			if err != nil {
				return err
			}
			return releaseFinished(ctx, tx, workID, nodes)
		})
		dir := artifactDir(workID, nodeID)
		switch {
		case err != nil:
			// The command ran: its outcome is told as facts, and the turn is
			// a recorded denial (EXEC_UNRECORDED), since the plan does not
			// hold it; the node keeps the status the store has. The store's
			// error stays in the log.
			c.log.Error().Err(err).Msg("validation status not recorded")
			for k, v := range outcome {
				t.result[k] = v
			}
			c.failAfterTx(ctx, t, "outcome_unrecorded", "args.planNodeId",
				fmt.Sprintf("validation command %s ran (passed: %v) but its outcome could not be recorded on node %s", cmdID, status == statusPassed, nodeID))
			return
		case !recorded:
			// A later run, or a new patch of what this run checked, replaced
			// it: its outcome is reported, not recorded, and the node keeps
			// the status it has now.
			outcome["superseded"] = true
			now, _ := findNode(t.nodes, nodeID)
			status = now.Status
		default:
			c.writeArtifact(dir, "validation.json", outcome)
			t.result["artifactBundleRef"] = dir
			t.result["validationRef"] = dir + "/validation.json"
		}
		for k, v := range outcome {
			t.result[k] = v
		}
		t.result["status"] = status
		if startErr != nil {
			// The node records the run as failed; the turn is a recorded
			// EXEC_FAILED denial that says why, not free text.
			c.failAfterTx(ctx, t, "command_not_started", "args.params.commandId",
				fmt.Sprintf("validation command %s did not start: %v", cmdID, startErr))
		}
	}
	return nil
}

// updateAfterTurn records, in a transaction of its own, what a turn learnt
// after its transaction (a validation's outcome, a commit), and reloads the
// turn's view of the plan so the response shows it.
func (c *Controller) updateAfterTurn(ctx context.Context, t *turn, workID string, record func(tx *store.Tx) error) error {
	return c.store.UpdateWithin(ctx, c.lockBounds(), func(tx *store.Tx) error {
		if err := record(tx); err != nil {
			return err
		}
		nodes, err := tx.Nodes(ctx, workID, false)
		t.nodes = nodes
		return err
	})
}

// findNode returns the node nodeID of nodes, and whether there is one.
func findNode(nodes []store.Node, nodeID string) (store.Node, bool) {
	i := slices.IndexFunc(nodes, func(n store.Node) bool { return n.NodeID == nodeID })
	if i < 0 {
		return store.Node{}, false
	}
	return nodes[i], true
}

// runValidation runs argv in the workspace's sandbox with a timeout. The
// verdict is the command's exit status there; what comes back is the tail
// of its output (sandbox.outputMaxBytes), redacted, with its full size, and
// why the command did not start, when it did not (a fact for policy).
func (c *Controller) runValidation(ctx context.Context, argv []string, dir string, timeout time.Duration) (map[string]any, error) {
	rel := ""
	if dir != "" {
		if d, err := c.paths.Sub(dir); err == nil {
			if r, err := filepath.Rel(c.root, d.Root()); err == nil && r != "." {
				rel = filepath.ToSlash(r)
			}
		}
	}
	out := c.runCommand(ctx, sandbox.Run{Argv: argv, Dir: rel}, timeout)
	res := map[string]any{"exitCode": out.exitCode, "passed": out.err == nil && out.started,
		"durationMs": out.duration.Milliseconds(), "output": out.output, "outputBytes": out.bytes, "truncated": out.truncated,
		"sandboxed": c.sandbox.Available()}
	switch {
	case out.timedOut:
		res["timedOut"] = true
		res["passed"] = false
	case !out.started:
		return res, out.err
	}
	return res, nil
}
