package controller

import (
	"context"

	"github.com/mcpc/mcpc/internal/indexer"
)

// Candidate is a file retrieval proposes for a pack, before policy.
type Candidate struct {
	File       string   `json:"file"`
	Score      float64  `json:"score"`
	Lanes      []string `json:"lanes"`
	Size       int64    `json:"size"`
	ParseError bool     `json:"parseError"`
	// SecretFindings: the rules of the secret detector its content matched
	// (markSecrets), whatever its name; nil when it was not scanned.
	SecretFindings []string `json:"secretFindings"`
}

// The index's own fact types: the controller passes them through to
// responses and packs unchanged.
type (
	Symbol = indexer.Symbol
	Edge   = indexer.Edge
	Usage  = indexer.Usage
)

// RankQuery is what a pack is ranked for.
type RankQuery struct {
	Prompt      string
	Lexemes     []string
	Attachments []string // captions and non-inline refs
	Limit       int
	// MemoryAnchors are the domain anchors of the memory records policy
	// counts (lib/memory).
	MemoryAnchors []string
}

// CodeIndex is what the controller needs of the code index and retrieval.
type CodeIndex interface {
	// Refresh brings the index up to date with the workspace (changed files
	// only), so a pack never reflects stale code.
	Refresh(ctx context.Context) error
	// Rank proposes pack files for a task, in rank order.
	Rank(ctx context.Context, q RankQuery) ([]Candidate, error)
	// Search proposes files for an escalation need, leaving out exclude.
	Search(ctx context.Context, need string, exclude map[string]bool, limit int) ([]Candidate, error)
	Symbols(name string) []Symbol
	FileSymbols(file string) []Symbol
	Neighbors(file string) []Edge
	Usages(files []string) []Usage
}

// refreshIndex brings the index up to date before a pack is built; a failure
// is logged and retrieval answers from what the index has.
func (c *Controller) refreshIndex(ctx context.Context) {
	// The refresh is the first of the three steps initialize_work and
	// escalate report.
	if err := c.index.Refresh(withIndexProgress(ctx, 0, 3)); err != nil {
		c.log.Warn().Err(err).Msg("index refresh failed; ranking from the last index")
	}
}
