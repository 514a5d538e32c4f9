package controller

import "context"

// Candidate is a file retrieval proposes for a pack, before policy.
type Candidate struct {
	File       string   `json:"file"`
	Score      float64  `json:"score"`
	Lanes      []string `json:"lanes"`
	Size       int64    `json:"size"`
	ParseError bool     `json:"parseError"`
}

// Symbol is a definition header from the code index.
type Symbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Exported  bool   `json:"exported"`
	Container string `json:"container,omitempty"`
}

// Edge is an import or reference between two files.
type Edge struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Kind   string `json:"kind"`
	Symbol string `json:"symbol,omitempty"`
}

// Usage is a template's use of a custom element (e.g. an adp-* tag).
type Usage struct {
	Tag       string `json:"tag"`
	File      string `json:"file"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Attrs     string `json:"attrs,omitempty"`
	Anchor    string `json:"anchor,omitempty"`
}

// RankQuery is what a pack is ranked for.
type RankQuery struct {
	Prompt      string
	Lexemes     []string
	Attachments []string // captions and non-inline refs
	Limit       int
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
