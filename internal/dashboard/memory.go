package dashboard

import (
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// memoryRecordsFile holds the workspace's memory records (the file the
// controller's memory lane reads).
const (
	memoryRecordsFile = ".ai/memory/records.json"
	maxMemoryBytes    = 16 << 20
)

// memoryCandidate is a memory record waiting for a person: pending or
// provisional.
type memoryCandidate struct {
	ID              string   `json:"id"`
	State           string   `json:"state"`
	EnforcementType string   `json:"enforcementType,omitempty"`
	DomainAnchorIDs []string `json:"domainAnchorIds"`
	RejectionCodes  []string `json:"rejectionCodes"`
	Note            string   `json:"note,omitempty"`
}

// memoryCandidates reads the records file (never through a symlink,
// bounded: it is in the repository) and lists the records awaiting
// approval. No file means none.
func memoryCandidates(workspace string) ([]memoryCandidate, error) {
	out := []memoryCandidate{}
	if workspace == "" {
		return out, nil
	}
	res, err := pathscope.New(workspace)
	if err != nil {
		return nil, err
	}
	raw, err := res.ReadFile(memoryRecordsFile, maxMemoryBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	} else if err != nil {
		return nil, err
	}
	var list []memoryCandidate
	if err := json.Unmarshal(raw, &list); err != nil {
		var doc struct {
			Records []memoryCandidate `json:"records"`
		}
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, errors.New(memoryRecordsFile + " is neither a list of records nor {\"records\": [...]}")
		}
		list = doc.Records
	}
	for _, r := range list {
		if r.State == "pending" || r.State == "provisional" {
			if r.DomainAnchorIDs == nil {
				r.DomainAnchorIDs = []string{}
			}
			if r.RejectionCodes == nil {
				r.RejectionCodes = []string{}
			}
			out = append(out, r)
		}
	}
	return out, nil
}
