package controller

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
	"github.com/mcpc/mcpc/schemas"
)

// patchDeadline bounds one run of a patch's edits (the dry run, then the
// write's run): an edit still running then is a deadline_exceeded problem,
// never a turn that holds the store.
const patchDeadline = 2 * time.Second

// applyEdits runs a patch's edits on content with this controller's
// codemods, bounded by patchDeadline.
func (c *Controller) applyEdits(ctx context.Context, file, content string, edits []patch.Edit) (string, []schemas.Problem) {
	ctx, cancel := context.WithTimeout(ctx, patchDeadline)
	defer cancel()
	failpointStall(ctx, "patch-edits")
	return patch.Apply(ctx, content, edits, patch.Options{File: file, Registry: c.codemods})
}

// patchSource is the content a patch applies to: the target file's, or
// nothing for a file that does not exist yet and is the targetFile of the
// change node the patch names (a node with operation "create"; policy
// decides whether this node may create it). try is false when there is
// nothing to apply the edits to; the scope rules say why. stamp is the
// content's (pathscope.Stamp), when it was read from a file.
func (c *Controller) patchSource(t *turn, pf pathFacts) (content []byte, stamp pathscope.Stamp, try bool, err error) {
	if pf.Valid && pf.Regular {
		if !slices.Contains(t.in.Pack.Files, pf.Canonical) && (pf.Hash == "" || t.in.Reads[pf.Canonical] != pf.Hash) {
			return nil, stamp, false, nil // whether edits apply would tell what a file outside the pack holds
		}
		content, stamp, err = c.paths.ReadFileStamped(pf.Canonical, c.cfg.Index.MaxFileBytes*8)
		return content, stamp, true, err
	}
	if pf.Exists || pf.Canonical == "" || !slices.Equal(pf.Problems, []string{pathscope.ProblemNotFound}) {
		return nil, stamp, false, nil
	}
	nodeID, _ := t.args["planNodeId"].(string)
	node, ok := findNode(t.nodes, nodeID)
	if !ok || decodeNode(node).TargetFile != pf.Canonical {
		return nil, stamp, false, nil // a missing file no node of the plan names is never tried
	}
	return []byte{}, stamp, true, nil
}

// writePatched writes a patch's result: in place of the file the decision
// saw, or as a new file when it saw none, never over one that appeared
// since (CreateFileAtomic refuses an existing name).
func (c *Controller) writePatched(pf pathFacts, content []byte) error {
	if pf.Exists {
		return c.paths.WriteFileAtomic(pf.Canonical, content, false)
	}
	return c.paths.CreateFileAtomic(pf.Canonical, content, false)
}

// dryRun is the content the decision's dry run read and what the edits made
// of it.
type dryRun struct {
	before []byte
	after  string
}

// editsToWrite is what applyPatch writes: the dry run's result when the
// file still holds what the dry run read (the edits judged are the edits
// written, and a codemod's parse is not paid twice), else the edits run
// again on the current content, whose problems then say it changed.
func (c *Controller) editsToWrite(ctx context.Context, t *turn, pf pathFacts, edits []patch.Edit) (before []byte, after string, probs []schemas.Problem, err error) {
	before, _, _, err = c.patchSource(t, pf)
	if err != nil {
		return nil, "", nil, err
	}
	if run := t.dry.result(); run != nil && bytes.Equal(before, run.before) {
		return before, run.after, nil, nil
	}
	after, probs = c.applyEdits(ctx, pf.Canonical, string(before), edits)
	return before, after, probs, nil
}

// describeCustomCodemods adds the codemods config declares to
// apply_code_patch's description: the built-ins are in the policy data's
// text, these exist only in this workspace's config.
func (c *Controller) describeCustomCodemods(verbs map[string]protocol.VerbDescription) {
	d, ok := verbs["apply_code_patch"]
	custom := c.codemods.Custom()
	if !ok || len(custom) == 0 {
		return
	}
	var b strings.Builder
	b.WriteString(d.Description)
	b.WriteString(" Codemods configured here (no params):")
	for i, name := range slices.Sorted(maps.Keys(custom)) {
		if i > 0 {
			b.WriteString(";")
		}
		b.WriteString(" " + name)
		if desc := custom[name].Description; desc != "" {
			b.WriteString(" (" + desc + ")")
		}
	}
	b.WriteString(".")
	d.Description = b.String()
	verbs["apply_code_patch"] = d
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
	var (
		before []byte
		in     patchIntent
		write  func() error
	)
	if d := t.dry; d != nil && d.staged != nil && d.run != nil {
		st := d.staged
		// The dry run's result is written beside the file already
		// (patchtrial.go): the lock is held for the intent and a rename,
		// which checks the file's stamp once more.
		before, in = d.run.before, c.patchIntentOf(t, pf, nodeID, d.afterHash, d.summary, edits)
		write = func() error {
			if pf.Exists {
				return st.Replace(d.stamp)
			}
			return st.Create()
		}
	} else {
		var (
			after string
			probs []schemas.Problem
			err   error
		)
		before, after, probs, err = c.editsToWrite(ctx, t, pf, edits)
		if err != nil {
			c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("patch target not readable")
			t.fail("io_error", "args.targetFile", "the file could not be read")
			return nil
		}
		if len(probs) > 0 || pf.Exists && sha256Hex(before) != pf.Hash {
			t.fail("file_changed", "args.targetFile", "the file changed between the decision and the write")
			return nil
		}
		in = c.patchIntentOf(t, pf, nodeID, sha256Hex([]byte(after)), diffSummary(pf.Canonical, string(before), after, len(edits)), edits)
		write = func() error { return c.writePatched(pf, []byte(after)) }
	}
	if tx.Expired() {
		return store.ErrLockTimeout // the lock may be another's now: write nothing (lockbound.go)
	}
	if err := c.writeIntent(in); err != nil {
		c.log.Warn().Err(err).Msg("patch intent not written")
		t.fail("io_error", "args.targetFile", "the patch could not be prepared")
		return nil
	}
	return c.patchWritten(ctx, tx, t, pf, nodeID, before, in, write())
}

// patchIntentOf is the intent of the patch t writes to pf.
func (c *Controller) patchIntentOf(t *turn, pf pathFacts, nodeID, after string, summary map[string]any, edits []patch.Edit) patchIntent {
	node, _ := findNode(t.nodes, nodeID)
	return patchIntent{Token: newID("patch"), WorkID: t.work.ID, NodeID: nodeID, File: pf.Canonical,
		Before: pf.Hash, After: after, Node: sha256Hex(node.Body), AgentID: t.agent.ID, GitRev: t.gitRev,
		Summary: summary, IntentID: t.intent.ID, MutationClass: mutationClass(edits)}
}

// patchWritten records a patch whose write ended with err: a file that
// changed since its stamp was checked is file_changed, another failure an
// I/O error; a written patch lands (its artifacts, ledger entry, node
// status and reservation).
func (c *Controller) patchWritten(ctx context.Context, tx *store.Tx, t *turn, pf pathFacts, nodeID string, before []byte, in patchIntent, err error) error {
	switch {
	case errors.Is(err, pathscope.ErrStale):
		c.dropIntent(in)
		t.fail("file_changed", "args.targetFile", "the file changed between the decision and the write")
		return nil
	case err != nil:
		c.dropIntent(in)
		c.log.Warn().Err(err).Str("file", pf.Canonical).Msg("patch not written")
		t.fail("io_error", "args.targetFile", "the file could not be written")
		return nil
	}
	failpoint("patch-written")
	t.onAbort(func() { c.undoPatch(pf, before, in) }) // the lock's bound rolled the turn back (lockbound.go)
	failpointSleep("lock:patched")
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
