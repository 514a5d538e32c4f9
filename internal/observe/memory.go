package observe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpc/mcpc/internal/pathscope"
	"github.com/mcpc/mcpc/internal/store"
)

// memoryRecordsFile is the workspace's memory records, edited by people
// (and by mcpc's memory tooling); a change to it is a memory_change event.
const (
	memoryRecordsFile = ".ai/memory/records.json"
	maxMemoryBytes    = 16 << 20
)

// memoryWatch notices changes of the memory records between batches: a
// stat per batch, a read and hash only when the file's size or time moved.
type memoryWatch struct {
	res   *pathscope.Resolver
	path  string
	size  int64
	mtime time.Time
	hash  string
	seen  bool
}

func newMemoryWatch(workspace string) *memoryWatch {
	res, err := pathscope.New(workspace)
	if err != nil {
		return nil
	}
	return &memoryWatch{res: res, path: filepath.Join(res.Root(), memoryRecordsFile)}
}

// check returns a memory_change event when the records changed since the
// last check (never on the first, which only takes the baseline).
func (m *memoryWatch) check() *store.ObservedEvent {
	st, err := os.Lstat(m.path)
	var size int64
	var mtime time.Time
	if err == nil {
		size, mtime = st.Size(), st.ModTime()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if m.seen && size == m.size && mtime.Equal(m.mtime) {
		return nil
	}
	m.size, m.mtime = size, mtime
	hash, states := "", map[string]int{}
	if err == nil {
		raw, err := m.res.ReadFile(memoryRecordsFile, maxMemoryBytes)
		if err != nil {
			return nil
		}
		sum := sha256.Sum256(raw)
		hash = "sha256:" + hex.EncodeToString(sum[:])
		var list []struct {
			State string `json:"state"`
		}
		if json.Unmarshal(raw, &list) != nil {
			var doc struct {
				Records []struct {
					State string `json:"state"`
				} `json:"records"`
			}
			_ = json.Unmarshal(raw, &doc)
			list = doc.Records
		}
		for _, r := range list {
			states[r.State]++
		}
	}
	first := !m.seen
	m.seen = true
	if first || hash == m.hash {
		m.hash = hash
		return nil
	}
	prev := m.hash
	m.hash = hash
	e := with(store.ObservedEvent{At: time.Now().UTC().Format(time.RFC3339Nano), Anchors: []string{}}, KindMemoryChange,
		map[string]any{"file": memoryRecordsFile, "hash": hash, "previous": prev, "states": states})
	return &e
}

// memoryChanged stores a memory_change event unless another process has
// already recorded the same content.
func (p *Pipeline) memoryChanged(ctx context.Context) []store.ObservedEvent {
	if p.memory == nil {
		return nil
	}
	e := p.memory.check()
	if e == nil {
		return nil
	}
	last, err := p.opts.Store.ListEvents(ctx, store.EventFilter{Kind: KindMemoryChange, Limit: 1, Newest: true})
	if err == nil && len(last) == 1 {
		var body struct {
			Hash string `json:"hash"`
		}
		if json.Unmarshal(last[0].Body, &body) == nil && body.Hash == p.memory.hash {
			return nil
		}
	}
	return []store.ObservedEvent{*e}
}
