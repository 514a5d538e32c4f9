package controller

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/ledger"
	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/sandbox"
	"github.com/mcpc/mcpc/internal/store"
)

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// artifactDir is a node's artifact bundle folder, relative to the workspace.
func artifactDir(workID, nodeID string) string {
	return workDir(workID) + "/artifacts/" + safeNodeID(nodeID)
}

// safeNodeID keeps node ids usable as one folder name.
func safeNodeID(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, strings.Trim(id, "."))
}

// applyPatch writes an allowed patch atomically, records the artifact bundle
// and the trace ledger entry, and refreshes the read snapshot so the agent's
// next edit of the same file is not falsely stale (seed 004).
func (c *Controller) applyPatch(ctx context.Context, tx *store.Tx, t *turn) error {
	pf := t.in.Paths["targetFile"]
	nodeID, _ := t.args["planNodeId"].(string)
	// The edits were applied by the dry run policy judged (outside the lock,
	// under a deadline): what is written is its result, when the file still
	// holds the content it was tried on.
	edits, _ := patch.ParseEdits(t.args["edits"])
	before, after, probs, err := c.editsToWrite(ctx, t, pf, edits)
	if err != nil {
		c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("patch target not readable")
		t.fail("io_error", "args.targetFile", "the file could not be read")
		return nil
	}
	if len(probs) > 0 || pf.Exists && sha256Hex(before) != pf.Hash {
		t.fail("file_changed", "args.targetFile", "the file changed between the decision and the write")
		return nil
	}
	node, _ := findNode(t.nodes, nodeID)
	in := patchIntent{Token: newID("patch"), WorkID: t.work.ID, NodeID: nodeID, File: pf.Canonical,
		Before: pf.Hash, After: sha256Hex([]byte(after)), Node: sha256Hex(node.Body), AgentID: t.agent.ID, GitRev: t.gitRev,
		Summary:  diffSummary(pf.Canonical, string(before), after, len(edits)),
		IntentID: t.intent.ID, MutationClass: mutationClass(edits)}
	if err := c.writeIntent(in); err != nil {
		c.log.Warn().Err(err).Msg("patch intent not written")
		t.fail("io_error", "args.targetFile", "the patch could not be prepared")
		return nil
	}
	if err := c.writePatched(pf, []byte(after)); err != nil {
		c.dropIntent(in)
		c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("patch not written")
		t.fail("io_error", "args.targetFile", "the file could not be written")
		return nil
	}
	failpoint("patch-written")
	// A turn that does not commit leaves the intent for RecoverPatches.
	t.afterTx = func(context.Context) { c.dropIntent(in) }
	if err := c.landPatch(ctx, tx, t, in); err != nil {
		return err
	}
	if err := c.reserve(ctx, tx, t, pf.Canonical, nodeID); err != nil {
		return err
	}
	dir := artifactDir(t.work.ID, nodeID)
	t.result["applied"] = true
	t.result["targetFile"] = pf.Canonical
	t.result["artifactBundleRef"] = dir
	t.result["diffSummaryRef"] = dir + "/diff.summary.json"
	t.result["contentHash"] = in.After
	return nil
}

// diffSummary counts changed lines and their range (1-based).
func diffSummary(file, before, after string, edits int) map[string]any {
	a, b := strings.Split(before, "\n"), strings.Split(after, "\n")
	lo := 0
	for lo < len(a) && lo < len(b) && a[lo] == b[lo] {
		lo++
	}
	ea, eb := len(a), len(b)
	for ea > lo && eb > lo && a[ea-1] == b[eb-1] {
		ea--
		eb--
	}
	return map[string]any{"file": file, "edits": edits, "startLine": lo + 1, "endLine": eb,
		"linesRemoved": ea - lo, "linesAdded": eb - lo}
}

func (c *Controller) writeArtifact(dir, name string, v any) {
	raw, _ := json.MarshalIndent(v, "", "  ")
	if err := c.writeState(dir+"/"+name, raw); err != nil {
		c.log.Warn().Err(err).Str("artifact", name).Msg("artifact not written")
	}
}

// appendTrace appends the seed 004 trace ledger record of a successful
// mutation, chained to the record before it (see appendLedger); fail-safe:
// a ledger failure is logged, never undoes the write.
func (c *Controller) appendTrace(ctx context.Context, tx *store.Tx, t *turn, file, contentHash string, summary map[string]any) {
	start, end := lineOf(summary["startLine"]), lineOf(summary["endLine"])
	node, _ := t.args["planNodeId"].(string)
	intentID, class := t.intent.ID, t.intent.MutationClass
	if intentID == "" {
		intentID = t.work.ID // no active_intents.yaml: the work is the intent
	}
	if class == "" {
		class = ledger.Unknown
	}
	rec := ledger.Record{
		ID: ledger.NewID(), Timestamp: c.now().UTC().Format(time.RFC3339Nano),
		IntentID: intentID, MutationClass: class, WorkID: t.work.ID,
		VCS: ledger.VCS{RevisionID: t.gitRev},
		Files: []ledger.File{{RelativePath: file, Conversations: []ledger.Conversation{{
			URL:         t.work.ID,
			Contributor: ledger.Contributor{EntityType: "AI", ModelIdentifier: t.agent.ID},
			Ranges:      []ledger.Range{{StartLine: start, EndLine: end, ContentHash: contentHash}},
			Related:     []ledger.Related{{Type: "plan_node", Value: node}},
		}}}},
	}
	if err := c.appendLedger(ctx, tx, rec); err != nil {
		c.log.Warn().Err(err).Msg("trace ledger append failed")
	}
}

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
		outcome := c.runValidation(ctx, cmd.Argv, cmd.Dir, time.Duration(cmd.TimeoutSec)*time.Second)
		reportProgress(ctx, 1, 1, "validation command "+cmdID+" finished")
		outcome["commandId"] = cmdID
		outcome["nodeId"] = nodeID
		status := statusFailed
		if outcome["passed"] == true {
			status = statusPassed
		}
		recorded := false
		err := c.updateAfterTurn(ctx, t, workID, func(tx *store.Tx) (err error) {
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
			c.log.Error().Err(err).Msg("validation status not recorded")
			outcome["error"] = "the outcome could not be recorded: " + err.Error()
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
	}
	return nil
}

// updateAfterTurn records, in a transaction of its own, what a turn learnt
// after its transaction (a validation's outcome, a commit), and reloads the
// turn's view of the plan so the response shows it.
func (c *Controller) updateAfterTurn(ctx context.Context, t *turn, workID string, record func(tx *store.Tx) error) error {
	return c.store.Update(ctx, func(tx *store.Tx) error {
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
// of its output (sandbox.outputMaxBytes), redacted, with its full size.
func (c *Controller) runValidation(ctx context.Context, argv []string, dir string, timeout time.Duration) map[string]any {
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
		res["error"] = "the command did not start: " + out.err.Error()
	}
	return res
}
