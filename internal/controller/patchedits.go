package controller

import (
	"context"
	"time"

	"github.com/mcpc/mcpc/internal/patch"
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
	return patch.Apply(ctx, content, edits, patch.Options{File: file, Registry: c.codemods})
}
