package controller

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"

	"github.com/mcpc/mcpc/internal/requirements"
)

// packDoc is context-pack.json: what the agent may see. Files only grow.
type packDoc struct {
	WorkID      string           `json:"workId"`
	Ref         string           `json:"ref"`
	Hash        string           `json:"-"` // sha256 of the file as written; not inside it
	Prompt      string           `json:"prompt"`
	Lexemes     []string         `json:"lexemes"`
	Files       []string         `json:"files"`
	Ranking     []rankEntry      `json:"ranking"`
	Symbols     []Symbol         `json:"symbols"`
	Usages      []Usage          `json:"usages"`
	Policies    []map[string]any `json:"policies"`
	Memories    []map[string]any `json:"memories"`
	Attachments []attachment     `json:"attachments"`
	Excluded    []map[string]any `json:"excluded"`
	Outcome     string           `json:"outcome"`
	Escalations int              `json:"escalations"`
	ProofChains json.RawMessage  `json:"proofChains,omitempty"` // seed 002 chains behind proof_chain files
	// Requirements are the tickets and API operations fetched for the work
	// and the connectors that failed (internal/requirements).
	Requirements *requirements.Pack `json:"requirements,omitempty"`

	// ActiveMemories are the active memories of the pack's domains.
	ActiveMemories []map[string]any `json:"activeMemories"`
}

type rankEntry struct {
	File  string   `json:"file"`
	Score float64  `json:"score"`
	Lanes []string `json:"lanes"`
}

// packSummary is how the pack sits in the works table: what every turn
// needs (ref, hash, files, outcome). The full document is the file on disk,
// so a read turn never decodes symbols and rankings.
type packSummary struct {
	Ref         string   `json:"ref"`
	Hash        string   `json:"hash"`
	Files       []string `json:"files"`
	Outcome     string   `json:"outcome"`
	Escalations int      `json:"escalations"`
	// Fetched are the requirement refs plans may cite (jira, swagger).
	Fetched *requirements.FetchedRefs `json:"fetched,omitempty"`
}

// MarshalStored is the works-table form of the pack.
func (p *packDoc) MarshalStored() json.RawMessage {
	sum := packSummary{Ref: p.Ref, Hash: p.Hash, Files: p.Files, Outcome: p.Outcome, Escalations: p.Escalations}
	if p.Requirements != nil {
		sum.Fetched = &p.Requirements.Fetched
	}
	raw, _ := json.Marshal(sum)
	return raw
}

// addFiles appends the files policy selected (lib/pack: exclusions, the
// file and byte limits) that the pack does not hold yet, in order, and
// returns them. It cuts nothing: the decision, its record and the pack
// written hold the same files.
func (c *Controller) addFiles(p *packDoc, decided []string, cands []Candidate) []string {
	byFile := map[string]Candidate{}
	for _, cd := range cands {
		byFile[cd.File] = cd
	}
	var added []string
	for _, f := range decided {
		if slices.Contains(p.Files, f) {
			continue
		}
		cd := byFile[f]
		p.Files = append(p.Files, f)
		p.Ranking = append(p.Ranking, rankEntry{File: f, Score: cd.Score, Lanes: cd.Lanes})
		added = append(added, f)
	}
	return added
}

// symbolsFor collects the definition headers and template usages of files.
func (c *Controller) symbolsFor(files []string) ([]Symbol, []Usage) {
	syms := []Symbol{}
	for _, f := range files {
		syms = append(syms, c.index.FileSymbols(f)...)
	}
	usages := c.index.Usages(files)
	if usages == nil {
		usages = []Usage{}
	}
	return syms, usages
}

// maxPackDocBytes bounds reading a context-pack.json back.
const maxPackDocBytes = 64 << 20

// encodePack is context-pack.json's content; it sets the pack's hash.
func encodePack(p *packDoc) ([]byte, error) {
	raw, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	p.Hash = "sha256:" + hex.EncodeToString(sum[:])
	return raw, nil
}

// writeState writes a file of mcpc's own that is written once (a decision
// record, an attachment, an artifact) at a worktree-relative path, never through a
// symlink: .ai/tmp is inside the repository, where a symlink could have been
// planted to send the write elsewhere.
func (c *Controller) writeState(canonical string, data []byte) error {
	return c.paths.WriteFile(canonical, data, true)
}

// maxInboxFile bounds one .ai/inbox file copied into a work.
const maxInboxFile = 16 << 20
