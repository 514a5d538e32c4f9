package controller

import (
	"context"

	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/memory"
)

// memoryAnchors asks policy (lib/memory) which memory records are in force
// (the one activation decision the pack and plan_rules read, on the same
// clock) and returns their domain anchors for the memory lane. Records
// that cannot be read, or a policy that cannot answer, point retrieval
// nowhere.
func (c *Controller) memoryAnchors(ctx context.Context) []string {
	if !c.paths.Resolve(memory.RecordsFile).Exists {
		return nil // most workspaces: no evaluation
	}
	records, err := memory.Load(c.paths)
	if err != nil {
		c.log.Warn().Err(err).Msg("memory records unreadable; the memory lane is empty")
		return nil
	}
	if len(records) == 0 {
		return nil
	}
	var out struct {
		Anchors []string `json:"anchors"`
	}
	if err := c.engine.EvaluateQuery(ctx, engine.MemoryQuery, memory.NewPolicyDoc(records, c.now(), c.cfg.Memory), &out); err != nil {
		c.log.Error().Err(err).Msg("memory policy evaluation failed; the memory lane is empty")
		return nil
	}
	return out.Anchors
}
