package controller

import (
	"context"

	"github.com/mcpc/mcpc/internal/store"
)

// gatherGuards adds the facts of the execution guards that judge a write
// (input.intents, input.reservation, input.sandboxedCode; docs/policy-input.md):
// the intent sidecar, the file the turn would write and who holds it, and
// the sandbox's run. Policy decides; Go only reports.
func (c *Controller) gatherGuards(ctx context.Context, tx *store.Tx, t *turn) error {
	t.in.Intents = intentsFacts{Active: []intentDeclared{}}
	t.in.SandboxedCode = codeRunFactsOf(t.codeRun)
	t.in.Reservation = reservationFacts{}
	t.in.Recipe = recipeFacts{}
	t.in.SideEffect = sideEffectFacts{}
	if t.req.Verb == "execute_gated_side_effect" && t.work != nil {
		c.gatherSideEffect(t)
	}
	if isLexemeRecipe(t) {
		if err := c.gatherLexemeRecipe(ctx, tx, t); err != nil {
			return err
		}
	}
	target := c.writeTarget(t)
	if target == "" {
		return nil
	}
	t.in.Intents = c.readIntents()
	t.in.Intents.Target = target
	t.intent.ID = intentFor(t.in.Intents, target)
	var err error
	t.in.Reservation, err = c.reservationOf(ctx, tx, target)
	return err
}

// writeTarget is the canonical file this turn would write, when it writes
// one and its path is valid (the scope rules judge an invalid one).
func (c *Controller) writeTarget(t *turn) string {
	if t.work == nil {
		return ""
	}
	if t.req.Verb != "apply_code_patch" && !isLexemeRecipe(t) {
		return ""
	}
	if pf, ok := t.in.Paths["targetFile"]; ok && pf.Valid {
		return pf.Canonical
	}
	return ""
}
