// Package ledger is the tamper-evident trace ledger of seed 004
// (.orchestration/agent_trace.jsonl): one JSON line per successful mutation,
// each sealed with its own hash and chained to the hash of the line before
// it. Rewriting, removing, inserting or reordering a line breaks the chain at
// that line, which Verify names. Lines written before records were chained
// (seed 004's plain records) may precede the chain; they are counted as
// legacy, not verified. The chain holds no secret: it makes a quiet
// edit evident, not an edit by someone who recomputes every later hash (the
// store's anchor, see Anchor, covers the tail against that and truncation).
package ledger

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
)

// Genesis is the prevHash of the first record.
const Genesis = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

// Mutation classes of seed 004.
const (
	ASTRefactor     = "AST_REFACTOR"
	IntentEvolution = "INTENT_EVOLUTION"
	Unknown         = "UNKNOWN"
	// Deletion is the class of a record whose file was deleted; its range
	// holds the Tombstone hash, as there is no content after it.
	Deletion = "DELETE"
)

// Tombstone is the content hash of a deleted file's record.
const Tombstone = "tombstone"

// Record is one ledger line: seed 004's trace record plus the chain fields
// (seq, prevHash; hash is appended when the record is sealed).
type Record struct {
	Seq           int    `json:"seq"`
	ID            string `json:"id"`
	Timestamp     string `json:"timestamp"`
	IntentID      string `json:"intent_id"`
	MutationClass string `json:"mutation_class"`
	WorkID        string `json:"work_id,omitempty"`
	VCS           VCS    `json:"vcs"`
	Files         []File `json:"files"`
	PrevHash      string `json:"prevHash"`
}

// VCS is the revision the mutation was made on.
type VCS struct {
	RevisionID string `json:"revision_id"`
}

// File is one mutated file of a record.
type File struct {
	RelativePath  string         `json:"relative_path"`
	Conversations []Conversation `json:"conversations"`
}

// Conversation names who changed which lines of a file.
type Conversation struct {
	URL         string      `json:"url"`
	Contributor Contributor `json:"contributor"`
	Ranges      []Range     `json:"ranges"`
	Related     []Related   `json:"related"`
}

// Contributor is the agent (entity_type AI) or person behind a change.
type Contributor struct {
	EntityType      string `json:"entity_type"`
	ModelIdentifier string `json:"model_identifier,omitempty"`
}

// Range is a changed line range and the file's content hash after it.
type Range struct {
	StartLine   int    `json:"start_line"`
	EndLine     int    `json:"end_line"`
	ContentHash string `json:"content_hash"`
}

// Related links a record to a plan node, a work, an intent.
type Related struct {
	Type  string `json:"type"`
	Value string `json:"value"`
}

// Head is the chain's end: the last record's seq and hash (Genesis and 0
// for an empty ledger).
type Head struct {
	Seq  int    `json:"seq"`
	Hash string `json:"hash"`
}

// NewID is a UUID v4, as seed 004 gives each record.
func NewID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// Seal chains rec to prev and returns its line (with the trailing newline)
// and the new head. The hash covers the record's bytes exactly as written,
// without its own "hash" member, which is always the last one.
func Seal(rec Record, prev Head) ([]byte, Head, error) {
	rec.Seq = prev.Seq + 1
	rec.PrevHash = prev.Hash
	body, err := json.Marshal(rec)
	if err != nil {
		return nil, prev, err
	}
	h := hashOf(body)
	line := make([]byte, 0, len(body)+len(h)+12)
	line = append(line, body[:len(body)-1]...)
	line = append(line, `,"hash":"`...)
	line = append(line, h...)
	line = append(line, "\"}\n"...)
	return line, Head{Seq: rec.Seq, Hash: h}, nil
}

func hashOf(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

var sealRe = regexp.MustCompile(`,"hash":"(sha256:[0-9a-f]{64})"\}$`)

// open splits a sealed line into its body (as hashed) and the hash it
// claims; ok is false when the line is not sealed.
func open(line []byte) (body []byte, claimed string, ok bool) {
	m := sealRe.FindSubmatchIndex(line)
	if m == nil {
		return nil, "", false
	}
	body = append(bytes.Clone(line[:m[0]]), '}')
	return body, string(line[m[2]:m[3]]), true
}

// LastHead is the head of a ledger whose last bytes are tail (the whole
// file, or enough of its end to hold the last line). An empty tail is an
// empty ledger. A last line that is not a sealed record (a ledger written
// before records were chained, an edit) starts a new chain at Genesis:
// Verify accepts unsealed lines only before the first sealed one, so an
// unsealed line between sealed ones is still reported.
func LastHead(tail []byte) (Head, error) {
	tail = bytes.TrimRight(tail, "\n")
	if len(tail) == 0 {
		return Head{Hash: Genesis}, nil
	}
	line := tail
	if i := bytes.LastIndexByte(tail, '\n'); i >= 0 {
		line = tail[i+1:]
	}
	_, claimed, ok := open(line)
	if !ok {
		return Head{Hash: Genesis}, nil
	}
	var r struct {
		Seq int `json:"seq"`
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return Head{}, fmt.Errorf("the ledger's last line is not JSON: %w", err)
	}
	return Head{Seq: r.Seq, Hash: claimed}, nil
}
