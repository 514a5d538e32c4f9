package controller

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
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
	// and the connectors that failed (requirements.go).
	Requirements *requirementsPack `json:"requirements,omitempty"`
}

type rankEntry struct {
	File  string   `json:"file"`
	Score float64  `json:"score"`
	Lanes []string `json:"lanes"`
}

type attachment struct {
	ArtifactID string `json:"artifactId"`
	Type       string `json:"type"`
	Ref        string `json:"ref"`
	Caption    string `json:"caption,omitempty"`
	// Citation is how a plan cites a fetched ticket or operation;
	// Content is its slice (requirements.go).
	Citation *citationRef    `json:"citation,omitempty"`
	Content  json.RawMessage `json:"content,omitempty"`
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
	Fetched *fetchedRefs `json:"fetched,omitempty"`
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

// loadPack reads the full pack document of a work from disk. The store's
// summary stays the authority on scope: a document edited on disk cannot
// widen what the agent may see.
func (c *Controller) loadPack(sum packSummary) (*packDoc, error) {
	raw, err := c.paths.ReadFile(sum.Ref, maxPackDocBytes)
	if err != nil {
		return nil, err
	}
	p := &packDoc{}
	if err := json.Unmarshal(raw, p); err != nil {
		return nil, err
	}
	p.Hash, p.Files, p.Outcome, p.Escalations = sum.Hash, sum.Files, sum.Outcome, sum.Escalations
	p.Ranking = slices.DeleteFunc(p.Ranking, func(r rankEntry) bool { return !slices.Contains(sum.Files, r.File) })
	return p, nil
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

// writePack writes context-pack.json atomically and sets its hash.
func (c *Controller) writePack(p *packDoc) error {
	raw, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(raw)
	p.Hash = "sha256:" + hex.EncodeToString(sum[:])
	// Replaced atomically: escalate rewrites it, and the store holds its hash.
	return c.paths.WriteFileAtomic(p.Ref, raw, true)
}

// writeState writes a file of mcpc's own that is written once (a decision
// record, an attachment, an artifact) at a worktree-relative path, never through a
// symlink: .ai/tmp is inside the repository, where a symlink could have been
// planted to send the write elsewhere.
func (c *Controller) writeState(canonical string, data []byte) error {
	return c.paths.WriteFile(canonical, data, true)
}

// storeAttachments saves args.attachments under the work's attachments/
// folder (inline base64 content is decoded; other refs are kept as metadata).
func (c *Controller) storeAttachments(workID string, raw any) ([]attachment, error) {
	list, _ := raw.([]any)
	out := []attachment{}
	for i, item := range list {
		m, _ := item.(map[string]any)
		typ, _ := m["type"].(string)
		ref, _ := m["ref"].(string)
		caption, _ := m["caption"].(string)
		a := attachment{ArtifactID: fmt.Sprintf("att-%03d", i+1), Type: typ, Ref: ref, Caption: caption}
		if b64, ok := strings.CutPrefix(ref, "inline:base64:"); ok {
			data, err := base64.StdEncoding.DecodeString(b64)
			if err != nil {
				return nil, fmt.Errorf("attachment %d is not valid base64", i)
			}
			name := fmt.Sprintf("%s-%03d.bin", safeName(typ), i+1)
			a.Ref = workDir(workID) + "/attachments/" + name
			if err := c.writeState(a.Ref, data); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// maxInboxFile bounds one .ai/inbox file copied into a work.
const maxInboxFile = 16 << 20

// inboxAttachments lists the files dropped in .ai/inbox/ (seed 000 §12:
// always ingested at initialize_work) as attachments of the work, after the
// ones the agent passed, and returns the copy of them into the work's
// attachments/ folder, to run once the work is committed: copying a large
// inbox inside the transaction held every other process's turns for as long
// (0.6 s for 120 MB). Links, nested folders, hidden and oversized files are
// skipped: the inbox is for people to drop files, not a way to reach out of
// the worktree.
func (c *Controller) inboxAttachments(workID string, atts []attachment) ([]attachment, func()) {
	inbox, err := c.paths.Sub(".ai/inbox")
	if err != nil {
		return atts, func() {}
	}
	entries, err := os.ReadDir(inbox.Root())
	if err != nil {
		return atts, func() {}
	}
	type copyJob struct{ from, to string }
	var jobs []copyJob
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err != nil || info.Size() > maxInboxFile {
			c.log.Warn().Str("file", e.Name()).Msg("inbox file skipped: unreadable or over 16 MiB")
			continue
		}
		a := attachment{ArtifactID: fmt.Sprintf("att-%03d", len(atts)+1), Type: "inbox",
			Ref: workDir(workID) + "/attachments/inbox-" + e.Name(), Caption: e.Name()}
		atts = append(atts, a)
		jobs = append(jobs, copyJob{".ai/inbox/" + e.Name(), a.Ref})
	}
	return atts, func() {
		for _, j := range jobs {
			// ReadFile re-checks what the listing saw: a regular, singly
			// linked file within the limit, reached without a link.
			data, err := c.paths.ReadFile(j.from, maxInboxFile)
			if err == nil {
				err = c.writeState(j.to, data)
			}
			if err != nil {
				c.log.Warn().Err(err).Str("file", j.from).Msg("inbox file not copied into the work")
			}
		}
	}
}

func safeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return -1
	}, strings.ToLower(s))
	if s == "" {
		return "attachment"
	}
	return s
}
