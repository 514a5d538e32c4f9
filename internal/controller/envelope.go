package controller

import (
	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

// envelope is what the server will check on a PlanGraph: the values an
// agent copies from planGraphSchema.envelope instead of guessing.
func (c *Controller) envelope(w *store.Work, agentID, packRef, packHash string) map[string]any {
	return map[string]any{
		"workId": w.ID, "agentId": agentID, "runSessionId": w.RunSessionID,
		"repoSnapshotId": w.RepoSnapshotID, "worktreeRoot": c.root,
		"contextPackRef": packRef, "contextPackHash": packHash,
		"policyVersionSet":  map[string]any{"mcpc": c.engine.Version()},
		"scopeAllowlistRef": packRef, "knowledgeStrategyId": c.viewOf(w).strategyID,
		"schemaVersion": protocol.SchemaVersion,
	}
}
