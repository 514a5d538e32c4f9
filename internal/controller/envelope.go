package controller

import (
	"encoding/json"
	"sync"

	"github.com/mcpc/mcpc/internal/protocol"
	"github.com/mcpc/mcpc/internal/store"
)

// envelopeValues are the values of a work's envelope. The fields are in the
// order of their JSON names, so the text is what a map of them encoded to.
type envelopeValues struct {
	AgentID             string            `json:"agentId"`
	ContextPackHash     string            `json:"contextPackHash"`
	ContextPackRef      string            `json:"contextPackRef"`
	KnowledgeStrategyID string            `json:"knowledgeStrategyId"`
	PolicyVersionSet    map[string]string `json:"policyVersionSet"`
	RepoSnapshotID      string            `json:"repoSnapshotId"`
	RunSessionID        string            `json:"runSessionId"`
	SchemaVersion       string            `json:"schemaVersion"`
	ScopeAllowlistRef   string            `json:"scopeAllowlistRef"`
	WorkID              string            `json:"workId"`
	WorktreeRoot        string            `json:"worktreeRoot"`
}

// envelopeFacts is the envelope in the input: its values and their JSON
// text, encoded once. The envelope of a work is the same on every turn of
// its agent, and encoding it as a map (sorted keys, interface values) on
// every turn was most of the encoding of a read turn's input. An input
// without a work has the empty envelope, {}.
type envelopeFacts struct {
	values envelopeValues
	text   []byte
}

// MarshalJSON writes the text encoded when the envelope was made.
func (e envelopeFacts) MarshalJSON() ([]byte, error) {
	if e.text == nil {
		return []byte("{}"), nil
	}
	return e.text, nil
}

// inputJSON is the same text, copied into the input as it is.
func (e envelopeFacts) inputJSON() ([]byte, bool) { return e.text, e.text != nil }

// asMap is the envelope as the response carries it.
func (v envelopeValues) asMap() map[string]any {
	return map[string]any{
		"workId": v.WorkID, "agentId": v.AgentID, "runSessionId": v.RunSessionID,
		"repoSnapshotId": v.RepoSnapshotID, "worktreeRoot": v.WorktreeRoot,
		"contextPackRef": v.ContextPackRef, "contextPackHash": v.ContextPackHash,
		"policyVersionSet":  map[string]any{"mcpc": v.PolicyVersionSet["mcpc"]},
		"scopeAllowlistRef": v.ScopeAllowlistRef, "knowledgeStrategyId": v.KnowledgeStrategyID,
		"schemaVersion": v.SchemaVersion,
	}
}

// strategyID is the work's knowledge strategy ("" without a work).
func (e envelopeFacts) strategyID() string { return e.values.KnowledgeStrategyID }

// envelopeMemo keeps the last envelope made, so consecutive turns of one
// agent reuse its text. The text is never modified once made.
type envelopeMemo struct {
	mu      sync.Mutex
	key     envelopeKey
	version string
	last    envelopeFacts
}

// envelopeKey is what an envelope is made of besides the policy version.
type envelopeKey struct {
	workID, agentID, runSessionID, repoSnapshotID, root, packRef, packHash, strategyID string
}

// envelope is what the server will check on a PlanGraph: the values an
// agent copies from planGraphSchema.envelope instead of guessing.
func (c *Controller) envelope(w *store.Work, agentID, packRef, packHash string) (envelopeFacts, error) {
	k := envelopeKey{w.ID, agentID, w.RunSessionID, w.RepoSnapshotID, c.root, packRef, packHash, c.viewOf(w).strategyID}
	version := c.engine.Version()
	m := &c.envelopes
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last.text != nil && m.key == k && m.version == version {
		return m.last, nil
	}
	v := envelopeValuesOf(k, version)
	text, err := json.Marshal(v)
	if err != nil {
		return envelopeFacts{}, err
	}
	m.key, m.version, m.last = k, version, envelopeFacts{values: v, text: text}
	return m.last, nil
}

// envelopeValues are the envelope's values for an agent of w and its pack.
func (c *Controller) envelopeValues(w *store.Work, agentID, packRef, packHash string) envelopeValues {
	return envelopeValuesOf(envelopeKey{w.ID, agentID, w.RunSessionID, w.RepoSnapshotID, c.root, packRef, packHash, c.viewOf(w).strategyID}, c.engine.Version())
}

func envelopeValuesOf(k envelopeKey, version string) envelopeValues {
	return envelopeValues{
		WorkID: k.workID, AgentID: k.agentID, RunSessionID: k.runSessionID,
		RepoSnapshotID: k.repoSnapshotID, WorktreeRoot: k.root,
		ContextPackRef: k.packRef, ContextPackHash: k.packHash,
		PolicyVersionSet:  map[string]string{"mcpc": version},
		ScopeAllowlistRef: k.packRef, KnowledgeStrategyID: k.strategyID,
		SchemaVersion: protocol.SchemaVersion,
	}
}
