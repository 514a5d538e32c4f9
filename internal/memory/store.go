package memory

import (
	"encoding/json"

	"github.com/mcpc/mcpc/internal/pathscope"
)

// Workspace-relative files of the memory lifecycle.
const (
	// RecordsLock serialises every read-modify-write of records.json across
	// processes: override ingestion (the controller takes the same lock),
	// candidates from friction and the people's CLI.
	RecordsLock = ".ai/tmp/memory-ingest.lock"
	// ChangelogFile gets one line per state change: who, when, why.
	ChangelogFile = ".ai/memory/changelog.jsonl"
)

// Update runs change over records.json under RecordsLock and writes the
// result atomically when change says it changed something. A crash
// leaves either the old or the new file, never half of one.
func Update(res *pathscope.Resolver, change func(records []Record) ([]Record, bool, error)) error {
	unlock, err := res.Lock(RecordsLock)
	if err != nil {
		return err
	}
	defer unlock()
	records, err := Load(res)
	if err != nil {
		return err
	}
	out, changed, err := change(records)
	if err != nil || !changed {
		return err
	}
	raw, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	return res.WriteFileAtomic(RecordsFile, append(raw, '\n'), true)
}

// Change is one line of the changelog.
type Change struct {
	At     string `json:"at"`
	ID     string `json:"id"`
	From   string `json:"from"`
	To     string `json:"to"`
	By     string `json:"by"`
	Reason string `json:"reason"`
}

// AppendChanges appends state changes to the changelog.
func AppendChanges(res *pathscope.Resolver, changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	var buf []byte
	for _, c := range changes {
		line, err := json.Marshal(c)
		if err != nil {
			return err
		}
		buf = append(append(buf, line...), '\n')
	}
	return res.AppendFile(ChangelogFile, buf, true)
}

// str is a record's string field, or "".
func str(r Record, key string) string {
	s, _ := r[key].(string)
	return s
}
