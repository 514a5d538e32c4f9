package controller

import (
	"context"

	"github.com/mcpc/mcpc/internal/patch"
	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/schemas"
)

// A patch's costly work runs before the turn's transaction, outside the
// store's write lock, once a preview of the first stage allows the turn:
// the target is read (with its stamp, pathscope.Stamp), hashed, the edits
// tried on it, and their result written and synced beside the target
// (pathscope.Stage). Under the lock the target is only stat'ed: when its
// stamp is the one the dry run read, the dry run's hash is the target's
// hash the decision judges, and writing is a rename of the staged file
// that checks the stamp once more (a file changed in between is
// EXEC_FILE_CHANGED). A target whose stamp moved is hashed and tried again
// under the lock, within its deadline, as it always was.

// patchTrial is a patch tried on a file's content outside the write lock;
// the transaction uses it only if the file still has the content it was
// tried on.
type patchTrial struct {
	file     string
	stamp    pathscope.Stamp // of the content tried (zero: not known, or a file to create)
	baseHash string
	run      *dryRun // the content and its result, when the edits apply
	facts    patchFacts
	// afterHash and summary describe run's result for the patch's intent.
	afterHash string
	summary   map[string]any
	// staged is run's result written beside the target, for the
	// transaction to publish; nil when it was not staged.
	staged *pathscope.Staged
}

// tryPatch applies edits to the file's current content (patchSource: or to
// nothing, for a file the plan creates), bounded by ctx and by the patch
// package's own deadline (a patch out of time is a problem policy denies).
func (c *Controller) tryPatch(ctx context.Context, t *turn, pf pathFacts) *patchTrial {
	d := &patchTrial{file: pf.Canonical, facts: patchFacts{Problems: []schemas.Problem{}, Elements: []elementFact{}, Contracts: map[string]contractFacts{}}}
	edits, err := patch.ParseEdits(t.args["edits"])
	d.facts.Edits = len(edits)
	if err != nil {
		d.facts.Problems = append(d.facts.Problems, schemas.Problem{Path: "args.edits", Message: err.Error()})
		return d
	}
	content, stamp, try, err := c.patchSource(t, pf)
	if !try {
		return d // the scope rules explain why; there is nothing to try
	}
	if err != nil {
		d.facts.Problems = append(d.facts.Problems, schemas.Problem{Path: "args.targetFile", Message: "the file could not be read"})
		return d
	}
	d.stamp = stamp
	d.baseHash = sha256Hex(content)
	after, probs := c.applyEdits(ctx, pf.Canonical, string(content), edits)
	if len(probs) > 0 {
		d.facts.Problems = append(d.facts.Problems, probs...)
		return d
	}
	d.facts.Applicable = true
	d.run = &dryRun{before: content, after: after}
	d.afterHash = sha256Hex([]byte(after))
	d.summary = diffSummary(pf.Canonical, string(content), after, len(edits))
	c.gatherContractFacts(ctx, &d.facts, pf.Canonical, string(content), after)
	return d
}

// stagePatch writes the dry run's result beside its target, outside the
// lock: for a file whose content it read with a known stamp, or a file to
// create. Nothing is staged when the edits do not apply; a staging that
// fails leaves the write to be made under the lock.
func (c *Controller) stagePatch(d *patchTrial, pf pathFacts) {
	if d == nil || d.run == nil || (pf.Exists && !d.stamp.Known()) || (!pf.Exists && len(d.run.before) > 0) {
		return
	}
	staged, err := c.paths.Stage(d.file, []byte(d.run.after))
	if err != nil {
		c.log.Debug().Err(err).Str("file", d.file).Msg("patch not staged; it is written under the lock")
		return
	}
	d.staged = staged
}

// discard drops what the trial staged and did not publish.
func (d *patchTrial) discard() {
	if d != nil && d.staged != nil {
		d.staged.Discard()
	}
}

// targetHash is the hash of a patch target under the lock: the dry run's
// when the file still has the stamp the dry run read it with (one stat),
// else the file hashed now.
func (c *Controller) targetHash(t *turn, file string) (string, error) {
	if d := t.dry; d != nil && d.file == file && d.baseHash != "" && c.unchanged(file, d.stamp) {
		return d.baseHash, nil
	}
	return c.paths.HashFile(file)
}

// gatherPatch fills apply_code_patch's verb facts inside the transaction:
// the target's hash now, and the dry run, reused when the file still has the
// content it was tried on, tried again (within the lock's deadline) if not.
func (c *Controller) gatherPatch(ctx context.Context, t *turn) {
	pf, ok := t.in.Paths["targetFile"]
	if !ok {
		t.dry.discard()
		t.dry = c.tryPatch(ctx, t, pathFacts{})
		t.in.Patch = t.dry.facts
		return
	}
	if pf.Valid && pf.Regular {
		if h, err := c.targetHash(t, pf.Canonical); err == nil {
			pf.Hash = h
			t.in.Paths["targetFile"] = pf
		}
	}
	if t.dry == nil || t.dry.file != pf.Canonical || (pf.Hash != "" && t.dry.baseHash != pf.Hash) {
		t.dry.discard()
		t.dry = c.tryPatch(ctx, t, pf)
	}
	t.in.Patch = t.dry.facts
}

// result is the content the trial read and what the edits made of it (nil
// for no trial, or edits that do not apply): what applyPatch writes.
func (d *patchTrial) result() *dryRun {
	if d == nil {
		return nil
	}
	return d.run
}
