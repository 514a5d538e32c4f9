package memory

import (
	"encoding/json"
	"os"
	"path/filepath"

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
	_, err := updateStamped(res, change)
	return err
}

// recordsStamp tells one version of records.json from another without
// reading it: its size and modification time (every write replaces it).
type recordsStamp struct {
	size  int64
	mtime int64
}

// Stamp identifies the version of records.json on disk (comparable; an
// absent file has one too), for caches of answers derived from it.
type Stamp = recordsStamp

// StampOf is records.json's stamp now.
func StampOf(res *pathscope.Resolver) Stamp { return stampOf(res) }

func stampOf(res *pathscope.Resolver) recordsStamp {
	st, err := os.Lstat(filepath.Join(res.Root(), filepath.FromSlash(RecordsFile)))
	if err != nil {
		return recordsStamp{size: -1}
	}
	return recordsStamp{size: st.Size(), mtime: st.ModTime().UnixNano()}
}

// updateStamped is Update returning the stamp of the file it leaves,
// taken under the lock: no other writer's version can hide behind it.
func updateStamped(res *pathscope.Resolver, change func(records []Record) ([]Record, bool, error)) (recordsStamp, error) {
	unlock, err := res.Lock(RecordsLock)
	if err != nil {
		return recordsStamp{}, err
	}
	defer unlock()
	records, err := Load(res)
	if err != nil {
		return recordsStamp{}, err
	}
	out, changed, err := change(records)
	if err != nil {
		return recordsStamp{}, err
	}
	if changed {
		raw, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			return recordsStamp{}, err
		}
		if err := res.WriteFileAtomic(RecordsFile, append(raw, '\n'), true); err != nil {
			return recordsStamp{}, err
		}
	}
	return stampOf(res), nil
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
