package controller

import (
	"context"

	"github.com/mcpc/mcpc/internal/engine"
	"github.com/mcpc/mcpc/internal/exactjson"
)

// memoryRecordsFile holds the workspace's memory records, people's
// knowledge an agent's retrieval may be pointed at (seed 000 §4 step 6).
const (
	memoryRecordsFile = ".ai/memory/records.json"
	maxMemoryBytes    = 16 << 20
)

// memoryRecord is what policy reads of a memory record.
type memoryRecord struct {
	ID              string   `json:"id"`
	State           string   `json:"state"`
	DomainAnchorIDs []string `json:"domainAnchorIds"`
}

// memoryAnchors asks policy (lib/memory) which memory records count and
// returns their domain anchors for the memory lane. Records that cannot
// be read, or a policy that cannot answer, point retrieval nowhere.
func (c *Controller) memoryAnchors(ctx context.Context) []string {
	records := c.memoryRecords()
	if len(records) == 0 {
		return nil
	}
	var out struct {
		Anchors []string `json:"anchors"`
	}
	if err := c.engine.EvaluateQuery(ctx, engine.MemoryQuery, map[string]any{"memoryRecords": records}, &out); err != nil {
		c.log.Error().Err(err).Msg("memory policy evaluation failed; the memory lane is empty")
		return nil
	}
	return out.Anchors
}

// memoryRecords reads the records file (a list, or {"records": [...]}),
// keys matched exactly, never through a link or past its bound.
func (c *Controller) memoryRecords() []memoryRecord {
	raw, err := c.paths.ReadFile(memoryRecordsFile, maxMemoryBytes)
	if err != nil {
		return nil // absent, as in most workspaces, or not a regular file
	}
	doc, problems, err := exactjson.Decode(raw)
	if err != nil || len(problems) > 0 {
		c.log.Warn().Str("file", memoryRecordsFile).Msg("memory records are not a JSON document with distinct keys; none count")
		return nil
	}
	list, ok := doc.([]any)
	if m, isObject := doc.(map[string]any); isObject {
		list, ok = m["records"].([]any)
	}
	if !ok {
		return nil
	}
	out := make([]memoryRecord, 0, len(list))
	for _, item := range list {
		m, _ := item.(map[string]any)
		id, _ := m["id"].(string)
		state, _ := m["state"].(string)
		out = append(out, memoryRecord{ID: id, State: state, DomainAnchorIDs: stringList(m["domainAnchorIds"])})
	}
	return out
}
